#pragma once
// Help ▸ Check this computer: `lizard-local doctor`'s report (every host feature lizard-local
// uses, found or not, and what it means for the sandboxes), run in the background and shown as
// it printed it, with its verdict on top. It checks the computer the app runs on, whatever the
// window is connected to.

#include <QDialog>

class QLabel;
class QPlainTextEdit;
class QProcess;

namespace lizard::ui {

class HostCheckDialog : public QDialog
{
    Q_OBJECT
public:
    // `program`: the lizard-local to ask (empty: none was found, and the dialog says so).
    explicit HostCheckDialog(const QString& program, QWidget* parent = nullptr);

    QString verdict() const;
    QString report() const;
    bool isRunning() const;

signals:
    void finished(int exitCode);

private:
    void showResult(int exitCode);

    QLabel* m_verdict;
    QPlainTextEdit* m_report;
    QProcess* m_process = nullptr;
};

} // namespace lizard::ui
