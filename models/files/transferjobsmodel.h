#pragma once
// The files panel's uploads and downloads as a table: what, progress, state. The model owns
// its jobs; finished ones stay listed until clearFinished().

#include <QAbstractTableModel>
#include <QList>

namespace lizard::models::files {

class TransferJob;

class TransferJobsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TitleColumn, ProgressColumn, StateColumn, ColumnCount };
    enum Role { ProgressRole = Qt::UserRole + 1, FinishedRole }; // ProgressRole: 0..100, -1 unknown

    using QAbstractTableModel::QAbstractTableModel;
    ~TransferJobsModel() override;

    // Takes the job, lists it and starts it.
    void addJob(TransferJob* job);
    TransferJob* jobAt(int row) const { return m_jobs.value(row); }
    int runningCount() const;
    void cancel(int row);
    void cancelAll();
    void clearFinished();

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString stateText(const TransferJob* job);

signals:
    void jobFinished(lizard::models::files::TransferJob* job);

private:
    void jobChanged(TransferJob* job);

    QList<TransferJob*> m_jobs;
};

} // namespace lizard::models::files
