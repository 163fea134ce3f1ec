#pragma once
// A CodeRunner for tests whose "code" is a script of what the run should report, one step per
// line, played back from the event loop (or synchronously inside run() when sync is set):
//   out:<text>            stdout line (text + "\n")      err:<text>   stderr line
//   result:<mime>=<data>  an execute_result               raise:<ename>:<evalue>  an error
//   display:<id>:<mime>=<data>  display_data with a display id
//   update:<id>:<mime>=<data>   update_display_data for that id
//   wait                  stop until release() or interrupt()
//   fail:<message>        the run breaks off (failed)
// When the script ends the run finishes with the next execution count, like a kernel.
// complete() offers the `completions` that start with the identifier before the cursor (from
// the event loop, or when answerCompletions() is called while holdCompletions is set);
// inspect() answers helpByName's entry for the dotted name at the cursor when there is one, else
// `help` (nullopt when empty).

#include "notebook/coderunner.h"

#include <QHash>
#include <QStringList>

namespace lizard::notebook::test {

class ScriptedRunner : public CodeRunner
{
    Q_OBJECT
public:
    using CodeRunner::CodeRunner;

    void run(const QString& code, const QHash<QString, QString>& envs) override;
    void interrupt() override;
    void release(); // continue a run that is at "wait"
    void complete(const QString& code, int cursor, QObject* ctx, CompleteDone done) override;
    void inspect(const QString& code, int cursor, QObject* ctx, InspectDone done) override;
    void answerCompletions(); // the held ones, in order

    QList<Completion> completions;
    bool holdCompletions = false;
    QStringList completeCalls; // code with '|' at the cursor, every complete() in order
    QString help;
    QHash<QString, QString> helpByName;
    QStringList inspectCalls; // code with '|' at the cursor, every inspect() in order

    bool sync = false;
    QStringList calls; // the code of every run, in order
    QList<QHash<QString, QString>> envsSeen;
    int active = 0; // runs started and not yet ended
    int maxActive = 0;
    int interrupts = 0;
    bool waiting = false;

private:
    void step();
    void schedule();

    QList<std::function<void()>> m_held;
    QStringList m_steps;
    int m_count = 0;
};

} // namespace lizard::notebook::test
