#pragma once
// The strip at the top of a notebook page: the sandbox and context it runs in (with "no state is
// kept between runs" for javascript and bash), the kernel's state and the sandbox's time left.

#include <QDateTime>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QLabel;

namespace lizard::models {
class SandboxTableModel;
}

namespace lizard::ui::notebook {

class NotebookHeader : public QWidget
{
    Q_OBJECT
public:
    explicit NotebookHeader(const QString& sandboxId, QWidget* parent = nullptr);

    void setContext(const QString& label, const QString& language);
    void setKernelState(const QString& state); // idle, busy, dead, starting, unknown
    void setSandboxModel(models::SandboxTableModel* model);
    void setNotice(const QString& text); // shown until the next one; empty hides it

    QString contextText() const;
    QString kernelText() const;
    QString timeLeftText() const;
    QString noticeText() const;

private:
    void updateTimeLeft();

    QString m_sandboxId;
    QPointer<models::SandboxTableModel> m_model;
    QLabel* m_context;
    QLabel* m_kernel;
    QLabel* m_timeLeft;
    QLabel* m_notice;
    QTimer m_tick;
};

} // namespace lizard::ui::notebook
