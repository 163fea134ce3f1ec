#pragma once
// Console for one sandbox: a command line with history (Up/Down), Run/Stop, the streamed
// output (ConsoleView), the exit code, and "Save output…" for the full output.

#include "client/outcome.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

namespace lizard::models {
class ConsoleSession;
}

namespace lizard::ui {

class ConsoleView;

class ConsoleWidget : public QWidget
{
    Q_OBJECT
public:
    explicit ConsoleWidget(QWidget* parent = nullptr);

    // The session runs the commands; the widget does not own it.
    void setSession(models::ConsoleSession* session);
    models::ConsoleSession* session() const;

    ConsoleView* view() const { return m_view; }
    QLineEdit* commandLine() const { return m_input; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* stopButton() const { return m_stop; }
    QString statusText() const;

    void runCommand(const QString& command);
    // Writes the full output (not only the visible lines) to `path`; false + message on failure.
    bool saveOutputTo(const QString& path, QString* error = nullptr);

signals:
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void runTyped();
    void saveOutput();
    void setRunning(bool running);
    void setStatus(const QString& text, const QString& color);

    QPointer<models::ConsoleSession> m_session;
    ConsoleView* m_view;
    QLineEdit* m_input;
    QPushButton* m_run;
    QPushButton* m_stop;
    QPushButton* m_save;
    QLabel* m_status;
};

} // namespace lizard::ui
