#pragma once
// Every process of one sandbox as a tree (parent → children by ppid), from lizard-local's
// process-tree extension, polled while someone looks. CPU is a rate: the CPU time a process
// gained between two listings over the time between them, in cores (1.0 = one core busy).
// A refresh keeps the rows' identity by pid, so a view can keep its selection and expansion.

#include "client/outcome.h"
#include "client/pendingcall.h"
#include "client/types.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QPointer>
#include <QTimer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class ProcessTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column {
        CommandColumn,
        PidColumn,
        UserColumn,
        CpuColumn,
        MemoryColumn,
        ThreadsColumn,
        StateColumn,
        StartedColumn,
        ColumnCount
    };
    enum Role { PidRole = Qt::UserRole + 1, SystemRole, SortRole, FilterRole };

    explicit ProcessTreeModel(QObject* parent = nullptr);

    void setApi(client::LizardApi* api); // not owned; null: no rows
    void setSandboxId(const QString& sandboxId);
    QString sandboxId() const { return m_sandboxId; }
    void refresh(); // unless a listing is in flight
    void setPolling(bool on);
    void setPollInterval(int ms) { m_timer.setInterval(qMax(100, ms)); }
    bool hasListed() const { return m_listed; }

    // Sends `signal` to each pid of this sandbox (with its descendants when `tree`), then lists
    // again. A pid that ended meanwhile is not an error: it is what was asked.
    void sendSignal(const QList<int>& pids, const QString& signal, bool tree);

    // Shown for a test or a tree that did not come from the server.
    void setTree(const client::ProcessTree& tree);

    const client::ProcessTreeEntry* entry(const QModelIndex& index) const;
    QModelIndex indexOfPid(int pid, int column = 0) const;
    int processCount() const { return int(m_nodes.size()); }
    double totalCores() const; // -1 before the second listing
    qint64 totalRssBytes() const;
    bool truncated() const { return m_truncated; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    void refreshed();
    void refreshFailed(const lizard::client::ApiError& error);
    void signalled(int pid, const QString& signal);
    void signalFailed(const lizard::client::ApiError& error);

private:
    struct Node
    {
        client::ProcessTreeEntry entry;
        int parent = -1; // index in m_nodes, -1: a root
        int row = 0;     // among its parent's children
        QList<int> children;
        double cores = -1; // -1: not known yet (first listing, or a new process)
    };
    void cancel();
    QVariant display(const Node& n, int column) const;
    QVariant sortKey(const Node& n, int column) const;

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    QList<Node> m_nodes;
    QList<int> m_roots;
    QHash<int, int> m_byPid; // pid → index in m_nodes
    qint64 m_sampledAtMs = 0;
    bool m_truncated = false;
    bool m_listed = false;
    QPointer<client::PendingCall> m_call;
    int m_serial = 0;
    QTimer m_timer;
};

} // namespace lizard::models
