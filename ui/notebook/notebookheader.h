#pragma once
// The strip at the top of a notebook page: the sandbox and context it runs in (with "no state is
// kept between runs" for javascript and bash), the kernel's state, the sandbox's countdown ("ends
// in 4:12", amber in its last minute; "kept alive while you work" with auto-extend) and a Sandbox
// menu (attach to another, run on a new one). Once the sandbox has ended, a banner says so and
// offers the same two ways on.

#include <QPointer>
#include <QTimer>
#include <QWidget>

class QAction;
class QCheckBox;
class QFrame;
class QLabel;
class QProgressBar;
class QPushButton;
class QToolButton;

namespace lizard::notebook {
class SandboxWatch;
} // namespace lizard::notebook
namespace lizard::ui {
class ElidingLabel;
} // namespace lizard::ui

namespace lizard::ui::notebook {

class NotebookHeader : public QWidget
{
    Q_OBJECT
public:
    explicit NotebookHeader(const QString& sandboxId, QWidget* parent = nullptr);

    void setSandboxId(const QString& sandboxId);
    void setContext(const QString& label, const QString& language);
    // idle, busy, dead, starting ("starting Python…" with a busy bar), unknown (not started).
    void setKernelState(const QString& state);
    void setWatch(lizard::notebook::SandboxWatch* watch);
    // The page's actions: shown in the Sandbox menu and, once the sandbox has ended, on the banner.
    void setSandboxActions(QAction* attach, QAction* runOnNew, QAction* thenRunAll);
    void setNotice(const QString& text); // shown until the next one; empty hides it

    QString contextText() const;
    QString kernelText() const;      // the state
    QString kernelLabelText() const; // what the header says of it
    bool kernelProgressShown() const;
    QString timeLeftText() const;
    QString keptAliveText() const;
    QString noticeText() const;
    bool timeLeftIsAmber() const;
    bool bannerShown() const;
    QString bannerText() const;
    QPushButton* bannerAttachButton() const { return m_attachButton; }
    QPushButton* bannerRunOnNewButton() const { return m_runOnNewButton; }
    QCheckBox* bannerRunAllBox() const { return m_runAllBox; }
    QToolButton* sandboxMenuButton() const { return m_sandboxButton; }

private:
    void updateSandbox();
    void showKernelState();
    void updateTimeLeft();

    QString m_sandboxId;
    QString m_contextLabel;
    QString m_language;
    QPointer<lizard::notebook::SandboxWatch> m_watch;
    QLabel* m_context;
    QString m_kernelState;
    QLabel* m_kernel;
    QProgressBar* m_kernelProgress;
    QLabel* m_timeLeft;
    QLabel* m_keptAlive;
    ElidingLabel* m_notice; // a long notice must not widen the window
    QToolButton* m_sandboxButton;
    QFrame* m_banner;
    QLabel* m_bannerText;
    QPushButton* m_attachButton;
    QPushButton* m_runOnNewButton;
    QCheckBox* m_runAllBox;
    QTimer m_tick;
};

} // namespace lizard::ui::notebook
