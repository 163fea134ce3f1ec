#include "models/processtreemodel.h"

#include "client/lizardapi.h"
#include "models/sizeformat.h"
#include "models/timeformat.h"

#include <algorithm>
#include <memory>

namespace lizard::models {

namespace {

QString stateText(const QString& s)
{
    if (s == QLatin1String("R"))
        return QStringLiteral("running");
    if (s == QLatin1String("S"))
        return QStringLiteral("sleeping");
    if (s == QLatin1String("D"))
        return QStringLiteral("waiting for disk");
    if (s == QLatin1String("Z"))
        return QStringLiteral("zombie");
    if (s == QLatin1String("T") || s == QLatin1String("t"))
        return QStringLiteral("stopped");
    if (s == QLatin1String("I"))
        return QStringLiteral("idle");
    return s;
}

} // namespace

ProcessTreeModel::ProcessTreeModel(QObject* parent) : QAbstractItemModel(parent)
{
    m_timer.setInterval(2000);
    connect(&m_timer, &QTimer::timeout, this, &ProcessTreeModel::refresh);
}

void ProcessTreeModel::setApi(client::LizardApi* api)
{
    cancel();
    m_api = api;
    setSandboxId(QString());
}

void ProcessTreeModel::setSandboxId(const QString& sandboxId)
{
    cancel();
    m_sandboxId = sandboxId;
    m_listed = false;
    m_sampledAtMs = 0;
    beginResetModel();
    m_nodes.clear();
    m_roots.clear();
    m_byPid.clear();
    endResetModel();
    refresh();
}

void ProcessTreeModel::setPolling(bool on)
{
    if (on && !m_timer.isActive())
        m_timer.start();
    else if (!on)
        m_timer.stop();
}

void ProcessTreeModel::cancel()
{
    ++m_serial;
    if (m_call)
        m_call->cancel();
    m_call = nullptr;
}

void ProcessTreeModel::refresh()
{
    if (!m_api || m_sandboxId.isEmpty() || m_call)
        return;
    const int serial = ++m_serial;
    m_call = m_api->processTree(m_sandboxId, this,
                                [this, serial](client::Outcome<client::ProcessTree> o) {
                                    if (serial != m_serial)
                                        return; // another sandbox or connection meanwhile
                                    m_call = nullptr;
                                    if (!o.ok()) {
                                        if (o.error().kind != client::ApiError::Kind::Cancelled)
                                            emit refreshFailed(o.error());
                                        return;
                                    }
                                    setTree(o.value());
                                    m_listed = true;
                                    emit refreshed();
                                });
}

void ProcessTreeModel::sendSignal(const QList<int>& pids, const QString& signal, bool tree)
{
    if (!m_api || m_sandboxId.isEmpty() || pids.isEmpty())
        return;
    auto left = std::make_shared<int>(int(pids.size()));
    for (int pid : pids) {
        m_api->signalTreeProcess(m_sandboxId, pid, signal, tree, this,
                                 [this, pid, signal, left](client::Outcome<client::Unit> o) {
                                     if (o.ok())
                                         emit signalled(pid, signal);
                                     else if (o.error().kind != client::ApiError::Kind::Cancelled &&
                                              o.error().kind != client::ApiError::Kind::NotFound)
                                         emit signalFailed(o.error());
                                     if (--*left == 0)
                                         refresh();
                                 });
    }
}

void ProcessTreeModel::setTree(const client::ProcessTree& tree)
{
    // The rate needs the same process (pid and start time) in the listing before.
    QHash<int, std::pair<qint64, QDateTime>> before;
    for (const Node& n : std::as_const(m_nodes))
        before.insert(n.entry.pid, {n.entry.cpuMs, n.entry.startedAt});
    const qint64 elapsedMs = m_sampledAtMs > 0 ? tree.sampledAtMs - m_sampledAtMs : 0;

    beginResetModel();
    m_nodes.clear();
    m_roots.clear();
    m_byPid.clear();
    for (const client::ProcessTreeEntry& e : tree.processes) {
        Node n;
        n.entry = e;
        const auto it = before.constFind(e.pid);
        if (elapsedMs > 0 && it != before.constEnd() && it->second == e.startedAt)
            n.cores = std::max<double>(0, double(e.cpuMs - it->first) / double(elapsedMs));
        m_byPid.insert(e.pid, int(m_nodes.size()));
        m_nodes.append(n);
    }
    for (int i = 0; i < m_nodes.size(); ++i) {
        Node& n = m_nodes[i];
        const auto parent = m_byPid.constFind(n.entry.ppid);
        // A process whose parent is outside the sandbox (PID 1's is 0) is a root.
        if (parent != m_byPid.constEnd() && *parent != i) {
            n.parent = *parent;
            n.row = int(m_nodes[*parent].children.size());
            m_nodes[*parent].children.append(i);
        } else {
            n.row = int(m_roots.size());
            m_roots.append(i);
        }
    }
    m_sampledAtMs = tree.sampledAtMs;
    m_truncated = tree.truncated;
    endResetModel();
}

const client::ProcessTreeEntry* ProcessTreeModel::entry(const QModelIndex& index) const
{
    if (!index.isValid() || index.model() != this)
        return nullptr;
    return &m_nodes.at(int(index.internalId())).entry;
}

QModelIndex ProcessTreeModel::indexOfPid(int pid, int column) const
{
    const auto it = m_byPid.constFind(pid);
    return it == m_byPid.constEnd() ? QModelIndex()
                                    : createIndex(m_nodes.at(*it).row, column, quintptr(*it));
}

double ProcessTreeModel::totalCores() const
{
    double sum = 0;
    bool any = false;
    for (const Node& n : m_nodes) {
        if (n.cores >= 0) {
            sum += n.cores;
            any = true;
        }
    }
    return any ? sum : -1;
}

qint64 ProcessTreeModel::totalRssBytes() const
{
    qint64 sum = 0;
    for (const Node& n : m_nodes)
        sum += n.entry.rssBytes;
    return sum;
}

QModelIndex ProcessTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column < 0 || column >= ColumnCount || row < 0)
        return {};
    const QList<int>& list =
        parent.isValid() ? m_nodes.at(int(parent.internalId())).children : m_roots;
    return row < list.size() ? createIndex(row, column, quintptr(list.at(row))) : QModelIndex();
}

QModelIndex ProcessTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    const int p = m_nodes.at(int(child.internalId())).parent;
    return p < 0 ? QModelIndex() : createIndex(m_nodes.at(p).row, 0, quintptr(p));
}

int ProcessTreeModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return int(m_roots.size());
    return parent.column() == 0 ? int(m_nodes.at(int(parent.internalId())).children.size()) : 0;
}

int ProcessTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant ProcessTreeModel::display(const Node& n, int column) const
{
    const client::ProcessTreeEntry& e = n.entry;
    switch (column) {
    case CommandColumn:
        return e.command;
    case PidColumn:
        return e.pid;
    case UserColumn:
        return e.user;
    case CpuColumn:
        return n.cores < 0 ? QString() : QString::number(n.cores * 100, 'f', 1) + QLatin1Char('%');
    case MemoryColumn:
        return formatBytes(e.rssBytes);
    case ThreadsColumn:
        return e.threads;
    case StateColumn:
        return stateText(e.state);
    case StartedColumn:
        return formatStarted(e.startedAt.toLocalTime(), QDateTime::currentDateTime());
    default:
        return {};
    }
}

QVariant ProcessTreeModel::sortKey(const Node& n, int column) const
{
    switch (column) {
    case PidColumn:
        return n.entry.pid;
    case CpuColumn:
        return n.cores;
    case MemoryColumn:
        return n.entry.rssBytes;
    case ThreadsColumn:
        return n.entry.threads;
    case StartedColumn:
        return n.entry.startedAt;
    default:
        return display(n, column).toString().toLower();
    }
}

QVariant ProcessTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const Node& n = m_nodes.at(int(index.internalId()));
    switch (role) {
    case Qt::DisplayRole:
        return display(n, index.column());
    case Qt::ToolTipRole:
        if (index.column() == CommandColumn)
            return n.entry.system ? QStringLiteral("%1\nThe sandbox's init: it cannot be "
                                                   "signalled (kill the sandbox instead)")
                                        .arg(n.entry.command)
                                  : n.entry.command;
        if (index.column() == StartedColumn)
            return n.entry.startedAt.toLocalTime().toString(Qt::ISODate);
        if (index.column() == CpuColumn)
            return QStringLiteral("CPU time so far: %1 s")
                .arg(double(n.entry.cpuMs) / 1000, 0, 'f', 2);
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == PidColumn || index.column() == CpuColumn ||
            index.column() == MemoryColumn || index.column() == ThreadsColumn)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case PidRole:
        return n.entry.pid;
    case SystemRole:
        return n.entry.system;
    case SortRole:
        return sortKey(n, index.column());
    case FilterRole:
        return QStringLiteral("%1 %2 %3").arg(n.entry.pid).arg(n.entry.user, n.entry.command);
    default:
        return {};
    }
}

QVariant ProcessTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[] = {"Command", "PID",     "User",  "CPU",
                                        "Memory",  "Threads", "State", "Started"};
    return section >= 0 && section < ColumnCount ? QString::fromLatin1(names[section]) : QVariant();
}

} // namespace lizard::models
