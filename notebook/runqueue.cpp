#include "notebook/runqueue.h"

namespace lizard::notebook {

RunQueue::RunQueue(NotebookDocument* document, CodeRunner* runner, QObject* parent)
    : QObject(parent), m_document(document), m_runner(runner)
{
    connect(runner, &CodeRunner::streamReceived, this, &RunQueue::onStream);
    connect(runner, &CodeRunner::resultReceived, this, &RunQueue::onResult);
    connect(runner, &CodeRunner::errorReceived, this, &RunQueue::onError);
    connect(runner, &CodeRunner::displayUpdated, this, &RunQueue::onDisplayUpdated);
    connect(runner, &CodeRunner::done, this, &RunQueue::onDone);
    connect(runner, &CodeRunner::failed, this, &RunQueue::onFailed);
    connect(document, &NotebookDocument::cellRemoved, this, &RunQueue::onCellRemoved);
    connect(document, &NotebookDocument::documentReset, this, &RunQueue::cancelQueued);
}

void RunQueue::run(Cell* cell)
{
    enqueue(cell);
    startNext();
}

void RunQueue::runAll()
{
    // Queue everything first, so a runner that answers at once still sees one busy period.
    for (int i = 0; i < m_document->cellCount(); ++i)
        enqueue(m_document->cell(i));
    startNext();
}

void RunQueue::enqueue(Cell* cell)
{
    if (!cell || m_document->indexOf(cell) < 0)
        return;
    // An interrupted cell may be queued again while its old run winds down.
    if (cell->status() == CellStatus::Queued || (m_running && cell == m_current && !m_interrupted))
        return;
    if (cell->type() != CellType::Code) {
        cell->setStatus(CellStatus::Done);
        return;
    }
    cell->setStatus(CellStatus::Queued);
    m_queue.emplace_back(cell);
    updateBusy();
}

void RunQueue::interrupt()
{
    cancelQueued();
    if (m_running && !m_interrupted) {
        m_interrupted = true;
        if (m_current)
            m_current->setStatus(CellStatus::Interrupted);
        m_runner->interrupt();
    }
}

void RunQueue::startNext()
{
    if (m_starting)
        return; // a runner that answers inside run(): the loop below picks up the next cell
    m_starting = true;
    while (!m_running && !m_queue.empty()) {
        QPointer<Cell> cell = m_queue.front();
        m_queue.pop_front();
        if (!cell || m_document->indexOf(cell) < 0)
            continue;
        if (cell->type() != CellType::Code) { // its type changed while it waited
            cell->setStatus(CellStatus::Done);
            continue;
        }
        m_current = cell;
        m_running = true;
        m_interrupted = false;
        m_sawError = false;
        cell->clearOutputs();
        cell->setStatus(CellStatus::Running);
        // The runner may answer synchronously from inside run(); the handlers cope with that.
        m_runner->run(cell->source(), m_envs);
    }
    m_starting = false;
    updateBusy();
}

void RunQueue::cancelQueued()
{
    while (!m_queue.empty()) {
        QPointer<Cell> cell = m_queue.front();
        m_queue.pop_front();
        if (cell && cell->status() == CellStatus::Queued)
            cell->setStatus(CellStatus::Idle);
    }
    updateBusy();
}

void RunQueue::onStream(const StreamOutput& output)
{
    if (m_running && m_current)
        m_current->appendOutput(output);
}

void RunQueue::onResult(const RichOutput& output)
{
    if (m_running && m_current)
        m_current->appendOutput(output);
}

void RunQueue::onDisplayUpdated(const QString& displayId, const RichOutput& output)
{
    // As in JupyterLab: the update reaches every output with that id, in this cell or an
    // earlier one (a progress bar made in one cell and advanced from the next).
    if (displayId.isEmpty())
        return;
    for (int c = 0; c < m_document->cellCount(); ++c) {
        Cell* cell = m_document->cell(c);
        const auto& outputs = cell->outputs();
        for (int i = 0; i < int(outputs.size()); ++i) {
            const auto* shown = std::get_if<RichOutput>(&outputs[size_t(i)]);
            if (shown == nullptr || shown->displayId != displayId)
                continue;
            RichOutput updated = *shown; // keeps its kind and execution count
            updated.data = output.data;
            updated.metadata = output.metadata;
            cell->setOutput(i, updated);
        }
    }
}

void RunQueue::onError(const ErrorOutput& output)
{
    if (!m_running)
        return;
    m_sawError = true;
    if (m_current)
        m_current->appendOutput(output);
}

void RunQueue::onDone(std::optional<int> executionCount)
{
    if (!m_running)
        return;
    if (m_current) {
        if (executionCount) {
            m_current->setExecutionCount(executionCount);
            stampResults(m_current, *executionCount);
        }
        if (!m_interrupted)
            m_current->setStatus(m_sawError ? CellStatus::Error : CellStatus::Done);
    }
    endRun();
}

void RunQueue::stampResults(Cell* cell, int executionCount)
{
    // The runner learns the count only at "done"; Jupyter shows it as Out[n] on the result.
    for (int i = 0; i < int(cell->outputs().size()); ++i) {
        const auto* rich = std::get_if<RichOutput>(&cell->outputs()[std::size_t(i)]);
        if (rich && rich->kind == RichOutput::Kind::ExecuteResult && !rich->executionCount) {
            RichOutput stamped = *rich;
            stamped.executionCount = executionCount;
            cell->setOutput(i, stamped);
        }
    }
}

void RunQueue::onFailed(const QString& message)
{
    if (!m_running)
        return;
    if (m_current) {
        // Shown and saved like a kernel error, so the user sees why the cell has no result.
        m_current->appendOutput(ErrorOutput{QStringLiteral("RunFailed"), message, {message}});
        if (!m_interrupted)
            m_current->setStatus(CellStatus::Error);
    }
    m_sawError = !m_interrupted;
    endRun();
}

void RunQueue::endRun()
{
    m_running = false;
    m_current = nullptr;
    // Stop on error, like Jupyter. After an interrupt the queue was already emptied; what was
    // queued since then was asked for knowing about the interrupt.
    if (m_sawError && !m_interrupted)
        cancelQueued();
    startNext();
}

void RunQueue::onCellRemoved(int, Cell* cell)
{
    for (auto it = m_queue.begin(); it != m_queue.end();) {
        if (*it == cell) {
            cell->setStatus(CellStatus::Idle);
            it = m_queue.erase(it);
        } else {
            ++it;
        }
    }
    updateBusy();
}

void RunQueue::updateBusy()
{
    const bool busy = isBusy();
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

} // namespace lizard::notebook
