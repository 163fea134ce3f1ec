#include "models/sandboxtablemodel.h"

#include "client/lizardapi.h"
#include "models/sandboxrow.h"

#include <QSet>

namespace lizard::models {

using client::SandboxInfo;

SandboxTableModel::SandboxTableModel(client::LizardApi* api, QObject* parent)
    : PolledTableModel(api, parent), m_clock([] { return QDateTime::currentDateTimeUtc(); })
{
    m_tickTimer.setInterval(1000);
    connect(&m_tickTimer, &QTimer::timeout, this, &SandboxTableModel::tick);
    m_tickTimer.start();
}

void SandboxTableModel::setTickInterval(int ms)
{
    m_tickTimer.start(qMax(10, ms));
}

void SandboxTableModel::clearRows()
{
    setLoaded(false);
    m_usage.clear();
    if (!m_rows.isEmpty()) {
        beginRemoveRows({}, 0, int(m_rows.size()) - 1);
        m_rows.clear();
        endRemoveRows();
    }
}

client::PendingCall* SandboxTableModel::startFetch(const QString& projectId, quint64 generation)
{
    fetchUsage(projectId);
    return api()->listSandboxes(projectId, this, [this, generation](auto outcome) {
        const bool apply = fetchDone(generation, outcome ? nullptr : &outcome.error(),
                                     QStringLiteral("List sandboxes"));
        if (apply)
            applySandboxes(outcome.value());
        setLoaded(m_loaded || apply);
        if (apply)
            emit refreshed();
    });
}

void SandboxTableModel::setLoaded(bool loaded)
{
    m_loaded = loaded;
    if (isLoaded() != m_wasLoaded) {
        m_wasLoaded = isLoaded();
        emit loadedChanged(m_wasLoaded);
    }
}

void SandboxTableModel::applySandboxes(const QList<SandboxInfo>& fresh)
{
    const auto key = [](const SandboxInfo& s) { return s.sandboxId; };
    applyRows(m_rows, fresh, key, [this](const SandboxInfo& a, const SandboxInfo& b) {
        if (!sandboxRowDiffers(a, b))
            return std::pair<int, int>{-1, -1};
        const QDateTime now = m_clock();
        const auto cols =
            changedColumns(a, b, SandboxColumn::Count, [now](const SandboxInfo& s, int col) {
                return sandboxCellText(s, col, now);
            });
        // Only hidden fields changed: still tell views the row's roles changed.
        return cols.first < 0 ? std::pair<int, int>{SandboxColumn::Status, SandboxColumn::Status}
                              : cols;
    });
}

void SandboxTableModel::tick()
{
    if (m_rows.isEmpty())
        return;
    // Time left, "started … ago" and the badge (ending soon); the columns between them too.
    static_assert(SandboxColumn::Status < SandboxColumn::Started &&
                  SandboxColumn::Started < SandboxColumn::TimeLeft);
    emit dataChanged(index(0, SandboxColumn::Status),
                     index(int(m_rows.size()) - 1, SandboxColumn::TimeLeft),
                     {Qt::DisplayRole, Qt::ToolTipRole, BadgeRole});
}

void SandboxTableModel::setActivity(const QString& sandboxId, const QString& text)
{
    if (m_activity.value(sandboxId) == text)
        return;
    if (text.isEmpty())
        m_activity.remove(sandboxId);
    else
        m_activity.insert(sandboxId, text);
    const int row = rowOf(sandboxId);
    if (row >= 0)
        emit dataChanged(index(row, SandboxColumn::Status), index(row, SandboxColumn::Status));
}

int SandboxTableModel::rowOf(const QString& sandboxId) const
{
    for (int row = 0; row < m_rows.size(); ++row)
        if (m_rows.at(row).sandboxId == sandboxId)
            return row;
    return -1;
}

int SandboxTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SandboxTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : SandboxColumn::Count;
}

QVariant SandboxTableModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SandboxInfo& info = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole: {
        if (index.column() == SandboxColumn::Cpu || index.column() == SandboxColumn::Memory)
            return usageData(info, index.column(), role);
        if (role == Qt::ToolTipRole && index.column() == SandboxColumn::Size)
            return sandboxLimitsToolTip(info);
        if (role == Qt::ToolTipRole &&
            (index.column() == SandboxColumn::Started || index.column() == SandboxColumn::TimeLeft))
            return sandboxTimeToolTip(info, index.column());
        QString text = sandboxCellText(info, index.column(), m_clock());
        if (index.column() == SandboxColumn::Status && m_activity.contains(info.sandboxId))
            text += QStringLiteral(" · ") + m_activity.value(info.sandboxId);
        return text;
    }
    case ActivityRole:
        return m_activity.value(info.sandboxId);
    case SandboxIdRole:
        return info.sandboxId;
    case StatusRole:
        return info.status;
    case BadgeRole:
        return sandboxBadge(info, m_clock());
    case EndAtRole:
        return info.endAt;
    case UsageRole:
    case NearLimitRole:
        return usageData(info, index.column(), role);
    case Qt::TextAlignmentRole:
        if (index.column() == SandboxColumn::TimeLeft || index.column() == SandboxColumn::Started ||
            index.column() == SandboxColumn::Cpu || index.column() == SandboxColumn::Memory)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default:
        return {};
    }
}

QVariant SandboxTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    return sandboxColumnTitle(section);
}

} // namespace lizard::models
