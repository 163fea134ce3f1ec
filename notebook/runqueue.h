#pragma once
// Runs cells of a document through a CodeRunner, one at a time, in the order they were asked
// for. Sets statuses (queued -> running -> done/error), appends outputs as they arrive and sets
// the execution count. Like Jupyter, an error in one cell cancels the cells queued after it.
// Markdown and raw cells "run" by being rendered: they become done at once, without the runner.

#include "notebook/coderunner.h"
#include "notebook/notebookdocument.h"

#include <QPointer>
#include <deque>

namespace lizard::notebook {

class RunQueue : public QObject
{
    Q_OBJECT
public:
    RunQueue(NotebookDocument* document, CodeRunner* runner, QObject* parent = nullptr);

    void setEnvironment(const QHash<QString, QString>& envs) { m_envs = envs; }

    // Queues a cell of the document. Ignored for cells not in the document and for cells that
    // are already queued or running (an interrupted cell can be queued again at once).
    void run(Cell* cell);
    void runAll();
    // Stops the running cell (it becomes interrupted) and empties the queue (queued cells go
    // back to idle).
    void interrupt();

    bool isBusy() const { return m_running || !m_queue.empty(); }
    Cell* currentCell() const { return m_current; } // the cell being run, if any
    int queuedCount() const { return int(m_queue.size()); }

signals:
    void busyChanged(bool busy);

private:
    void enqueue(Cell* cell);
    void startNext();
    void cancelQueued();
    void onStream(const StreamOutput& output);
    void onResult(const RichOutput& output);
    void onError(const ErrorOutput& output);
    void onDisplayUpdated(const QString& displayId, const RichOutput& output);
    void onDone(std::optional<int> executionCount);
    void onFailed(const QString& message);
    void stampResults(Cell* cell, int executionCount);
    void endRun();
    void onCellRemoved(int index, Cell* cell);
    void updateBusy();

    NotebookDocument* m_document;
    CodeRunner* m_runner;
    QHash<QString, QString> m_envs;
    std::deque<QPointer<Cell>> m_queue;
    QPointer<Cell> m_current;
    bool m_running = false;     // the runner owes us done/failed
    bool m_interrupted = false; // interrupt() was called for the current run
    bool m_sawError = false;    // the current run reported an error
    bool m_busy = false;
    bool m_starting = false; // inside startNext()
};

} // namespace lizard::notebook
