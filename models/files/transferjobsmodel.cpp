#include "models/files/transferjobsmodel.h"

#include "models/files/sandboxfilemodel.h"
#include "models/files/transferjob.h"

namespace lizard::models::files {

TransferJobsModel::~TransferJobsModel()
{
    for (TransferJob* job : std::as_const(m_jobs))
        disconnect(job, nullptr, this, nullptr); // jobs are children: they go with us, quietly
}

void TransferJobsModel::addJob(TransferJob* job)
{
    job->setParent(this);
    beginInsertRows({}, int(m_jobs.size()), int(m_jobs.size()));
    m_jobs.append(job);
    endInsertRows();
    connect(job, &TransferJob::progressChanged, this, [this, job] { jobChanged(job); });
    connect(job, &TransferJob::finished, this, [this, job] { emit jobFinished(job); });
    job->start();
}

int TransferJobsModel::runningCount() const
{
    return int(std::count_if(m_jobs.cbegin(), m_jobs.cend(),
                             [](const TransferJob* j) { return !j->isFinished(); }));
}

void TransferJobsModel::cancel(int row)
{
    if (TransferJob* job = m_jobs.value(row))
        job->cancel();
}

void TransferJobsModel::cancelAll()
{
    for (TransferJob* job : std::as_const(m_jobs))
        job->cancel();
}

void TransferJobsModel::clearFinished()
{
    for (int row = int(m_jobs.size()) - 1; row >= 0; --row) {
        if (!m_jobs[row]->isFinished())
            continue;
        beginRemoveRows({}, row, row);
        TransferJob* job = m_jobs.takeAt(row);
        endRemoveRows();
        disconnect(job, nullptr, this, nullptr);
        job->deleteLater();
    }
}

void TransferJobsModel::jobChanged(TransferJob* job)
{
    const int row = int(m_jobs.indexOf(job));
    if (row >= 0)
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int TransferJobsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_jobs.size());
}
int TransferJobsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString TransferJobsModel::stateText(const TransferJob* job)
{
    switch (job->state()) {
    case TransferJob::State::Running:
        if (job->bytesTotal() > 0)
            return tr("%1 of %2")
                .arg(SandboxFileModel::formatSize(job->bytesDone()),
                     SandboxFileModel::formatSize(job->bytesTotal()));
        return job->bytesDone() > 0 ? SandboxFileModel::formatSize(job->bytesDone())
                                    : tr("Starting…");
    case TransferJob::State::Done:
        return job->message().isEmpty() ? tr("Done") : tr("Done (%1)").arg(job->message());
    case TransferJob::State::Failed:
        return job->message();
    case TransferJob::State::Cancelled:
        return tr("Cancelled");
    }
    return {};
}

QVariant TransferJobsModel::data(const QModelIndex& index, int role) const
{
    const TransferJob* job = m_jobs.value(index.row());
    if (!index.isValid() || job == nullptr)
        return {};
    const int percent = job->state() == TransferJob::State::Done ? 100
                        : job->bytesTotal() > 0 ? int(job->bytesDone() * 100 / job->bytesTotal())
                                                : -1;
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TitleColumn:
            return job->title();
        case ProgressColumn:
            return percent < 0 ? QString() : QStringLiteral("%1%").arg(percent);
        case StateColumn:
            return stateText(job);
        }
        return {};
    case Qt::ToolTipRole:
        return QStringLiteral("%1\n%2").arg(job->title(), stateText(job));
    case ProgressRole:
        return percent;
    case FinishedRole:
        return job->isFinished();
    }
    return {};
}

QVariant TransferJobsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TitleColumn:
        return tr("Transfer");
    case ProgressColumn:
        return tr("Progress");
    case StateColumn:
        return tr("State");
    }
    return {};
}

} // namespace lizard::models::files
