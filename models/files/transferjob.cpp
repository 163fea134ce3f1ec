#include "models/files/transferjob.h"

#include "client/lizardapi.h"

namespace lizard::models::files {

TransferJob::TransferJob(client::LizardApi* api, const QString& sandboxId, Direction direction,
                         QObject* parent)
    : QObject(parent), m_api(api), m_sandboxId(sandboxId), m_direction(direction)
{
}

void TransferJob::cancel()
{
    if (isFinished())
        return;
    finish(State::Cancelled, tr("Cancelled"));
}

void TransferJob::setProgress(qint64 done, qint64 total)
{
    if (isFinished() || (done == m_done && total == m_total))
        return;
    m_done = done;
    m_total = total;
    emit progressChanged();
}

void TransferJob::finish(State state, const QString& message)
{
    if (isFinished())
        return;
    m_state = state;
    m_message = message;
    if (m_call)
        m_call->cancel(); // its callback then sees Cancelled and the finished state: ignored
    cleanUp();
    emit progressChanged();
    emit finished();
}

} // namespace lizard::models::files
