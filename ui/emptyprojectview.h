#pragma once
// What the sandbox area shows while the selected project has no sandboxes: what a sandbox is,
// a prominent "New notebook", "New sandbox…", and how to reach this server from the official SDK.
// The buttons trigger actions owned elsewhere and follow their enabled state. When the server
// cannot make sandboxes on this computer, a box above says why and gives the command that fixes
// it, to copy.

#include <QWidget>

class QAction;
class QFrame;
class QLabel;
class QPushButton;

namespace lizard::ui {

class EmptyProjectView : public QWidget
{
    Q_OBJECT
public:
    explicit EmptyProjectView(QWidget* parent = nullptr);

    // Each is set once (not owned); a button without its action stays hidden.
    void setNewNotebookAction(QAction* action);
    void setNewSandboxAction(QAction* action);
    // The SDK line: the server's URL, plus the key file's path when it is known (a local server).
    // An empty url hides the line.
    void setServer(const QString& url, const QString& keyFile);

    // The server's "sandboxes unavailable" note: "<why> Fix: <command>"; empty hides the box.
    void setHostProblem(const QString& text);
    QString hostProblemText() const;
    QString fixCommand() const { return m_fixCommand; }
    QPushButton* copyFixButton() const { return m_copyFix; }

    QPushButton* newNotebookButton() const { return m_notebook; }
    QPushButton* newSandboxButton() const { return m_sandbox; }
    QString sdkText() const;

private:
    static void bind(QPushButton* button, QAction* action);

    QPushButton* m_notebook;
    QPushButton* m_sandbox;
    QLabel* m_sdk;
    QFrame* m_problem;
    QLabel* m_problemText;
    QLabel* m_fix;
    QPushButton* m_copyFix;
    QString m_fixCommand;
};

} // namespace lizard::ui
