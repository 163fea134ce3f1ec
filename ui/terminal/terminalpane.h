#pragma once
// One terminal tab: the emulator (TerminalView) wired to its attached session, a find bar
// (Ctrl+Shift+F), and a strip that says what is wrong when it is not simply attached:
// reconnecting, the program's exit (with New terminal), or why it could not attach.

#include "client/types.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

namespace lizard::client {
class LizardApi;
}
namespace lizard::models {
class TerminalSession;
}

namespace lizard::ui {

class TerminalView;

class TerminalPane : public QWidget
{
    Q_OBJECT
public:
    // Output the view has not parsed yet, beyond which reading pauses (about 0.2 s of its work).
    static constexpr qint64 kMaxPendingOutput = 4 * 1024 * 1024;

    // Attaches at once. api: not owned.
    TerminalPane(client::LizardApi* api, const client::TerminalInfo& terminal,
                 QWidget* parent = nullptr);

    QString terminalId() const { return m_terminal.terminalId; }
    TerminalView* view() const { return m_view; }
    models::TerminalSession* session() const { return m_session; }
    // The tab's text: the name given, else the title the program set (OSC 0/2), else the
    // command.
    QString title() const;
    void setName(const QString& name);
    bool hasExited() const;
    QLabel* statusStrip() const { return m_status; }

    void showFind();

signals:
    void titleChanged();
    void newTerminalRequested();

private:
    void throttle();
    void updateStrip();
    void findNext(bool backwards);

    client::TerminalInfo m_terminal;
    TerminalView* m_view;
    models::TerminalSession* m_session;
    QWidget* m_strip;
    QLabel* m_status;
    QPushButton* m_stripAction;
    QWidget* m_findBar;
    QLineEdit* m_findText;
    QString m_programTitle;
    bool m_outputPaused = false;
};

} // namespace lizard::ui
