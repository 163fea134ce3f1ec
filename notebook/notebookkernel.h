#pragma once
// What a notebook page needs from its code context beyond running code (CodeRunner): which
// context it is, the kernel's state, the sandbox's other contexts (including ones agents made)
// to switch to, new contexts, restart. ClientNotebookKernel implements it on the client's code
// interpreter; tests use a scripted one.

#include <QList>
#include <QObject>
#include <QString>
#include <functional>

namespace lizard::notebook {

struct ContextChoice
{
    QString id;       // empty: the default context of `language`
    QString language; // python, javascript, bash
    QString cwd;
    bool operator==(const ContextChoice&) const = default;
};

class NotebookKernel : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~NotebookKernel() override;

    virtual ContextChoice context() const = 0;
    // "unknown", "starting", "idle", "busy" or "dead".
    virtual QString state() const = 0;

    using ListDone = std::function<void(QList<ContextChoice> contexts, QString error)>;
    using ContextDone = std::function<void(ContextChoice context, QString error)>;
    using Done = std::function<void(QString error)>; // empty: it worked

    virtual void listContexts(ListDone done) = 0;
    virtual void createContext(const QString& language, ContextDone done) = 0;
    virtual void selectContext(const ContextChoice& context) = 0; // next runs go there
    virtual void restart(Done done) = 0;
    // Starts the kernel now rather than with the first run (a notebook that opens), when it
    // keeps state and none runs yet; the state reads "starting" until it is idle.
    virtual void startKernel() {}

    // True for languages whose runs keep no state (javascript, bash start a fresh process).
    static bool keepsState(const QString& language) { return language == u"python"; }

signals:
    void stateChanged(const QString& state);
    void contextChanged();
    void notice(const QString& message); // e.g. "started a fresh kernel"
    void outputCleared();                // the running code cleared its cell's output
};

} // namespace lizard::notebook
