#include "models/sandboxtablemodel.h"

#include "client/lizardapi.h"
#include "models/sandboxrow.h"

#include <QSet>

namespace lizard::models {

using client::SandboxInfo;

SandboxTableModel::SandboxTableModel(client::LizardApi* api, QObject* parent)
    : QAbstractTableModel(parent), m_api(api),
      m_clock([] { return QDateTime::currentDateTimeUtc(); })
{
    m_pollTimer.setInterval(2000);
    m_tickTimer.setInterval(1000);
    connect(&m_pollTimer, &QTimer::timeout, this, &SandboxTableModel::refresh);
    connect(&m_tickTimer, &QTimer::timeout, this, &SandboxTableModel::tick);
    m_pollTimer.start();
    m_tickTimer.start();
}

void SandboxTableModel::setProjectId(const QString& projectId)
{
    if (m_inFlight)
        m_inFlight->cancel();
    ++m_generation;
    m_projectId = projectId;
    setLoadState(false, m_failing);
    if (!m_rows.isEmpty()) {
        beginRemoveRows({}, 0, int(m_rows.size()) - 1);
        m_rows.clear();
        endRemoveRows();
    }
    refresh();
}

void SandboxTableModel::setPollInterval(int ms)
{
    if (ms <= 0) {
        m_pollTimer.stop();
        return;
    }
    m_pollTimer.start(ms);
}

void SandboxTableModel::setTickInterval(int ms)
{
    m_tickTimer.start(qMax(10, ms));
}

void SandboxTableModel::refresh()
{
    if (m_api == nullptr || m_projectId.isEmpty())
        return;
    if (m_inFlight) {
        m_refreshAgain = true;
        return;
    }
    m_refreshAgain = false;
    const quint64 generation = m_generation;
    m_inFlight = m_api->listSandboxes(m_projectId, this, [this, generation](auto outcome) {
        m_inFlight = nullptr;
        if (m_refreshAgain)
            QTimer::singleShot(0, this, &SandboxTableModel::refresh);
        if (generation != m_generation)
            return; // an answer for the project we showed before
        if (!outcome) {
            if (!m_failing) {
                setLoadState(m_loaded, true);
                client::ApiError error = outcome.error();
                if (error.what.isEmpty())
                    error.what = QStringLiteral("List sandboxes");
                emit refreshFailed(error);
            }
            return;
        }
        const bool recovered = m_failing;
        applySandboxes(outcome.value());
        setLoadState(true, false);
        if (recovered)
            emit refreshRecovered();
        emit refreshed();
    });
}

void SandboxTableModel::setLoadState(bool loaded, bool failing)
{
    const bool before = isLoaded();
    m_loaded = loaded;
    m_failing = failing;
    if (isLoaded() != before)
        emit loadedChanged(isLoaded());
}

void SandboxTableModel::applySandboxes(const QList<SandboxInfo>& fresh)
{
    QSet<QString> freshIds;
    for (const auto& info : fresh)
        freshIds.insert(info.sandboxId);
    // Remove rows that are gone, in contiguous runs from the bottom up.
    for (int row = int(m_rows.size()) - 1; row >= 0;) {
        if (freshIds.contains(m_rows.at(row).sandboxId)) {
            --row;
            continue;
        }
        int first = row;
        while (first > 0 && !freshIds.contains(m_rows.at(first - 1).sandboxId))
            --first;
        beginRemoveRows({}, first, row);
        m_rows.remove(first, row - first + 1);
        endRemoveRows();
        row = first - 1;
    }
    QList<SandboxInfo> added;
    for (const auto& info : fresh) {
        const int row = rowOf(info.sandboxId);
        if (row >= 0)
            updateRow(row, info);
        else
            added.append(info);
    }
    if (!added.isEmpty()) {
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        m_rows.append(added);
        endInsertRows();
    }
}

void SandboxTableModel::updateRow(int row, const SandboxInfo& info)
{
    SandboxInfo& current = m_rows[row];
    if (!sandboxRowDiffers(current, info))
        return;
    const QDateTime now = m_clock();
    int firstCol = -1;
    int lastCol = -1;
    for (int col = 0; col < SandboxColumn::Count; ++col) {
        if (sandboxCellText(current, col, now) != sandboxCellText(info, col, now)) {
            if (firstCol < 0)
                firstCol = col;
            lastCol = col;
        }
    }
    current = info;
    if (firstCol < 0) // only hidden fields changed: still tell views the row's roles changed
        firstCol = lastCol = SandboxColumn::Status;
    emit dataChanged(index(row, firstCol), index(row, lastCol));
}

void SandboxTableModel::tick()
{
    int first = -1;
    int last = -1;
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows.at(row).endAt.isValid()) {
            if (first < 0)
                first = row;
            last = row;
        }
    }
    if (first >= 0)
        emit dataChanged(index(first, SandboxColumn::TimeLeft),
                         index(last, SandboxColumn::TimeLeft), {Qt::DisplayRole});
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
        if (role == Qt::ToolTipRole && index.column() == SandboxColumn::Size)
            return sandboxLimitsToolTip(info);
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
    case EndAtRole:
        return info.endAt;
    case Qt::TextAlignmentRole:
        if (index.column() == SandboxColumn::TimeLeft || index.column() == SandboxColumn::Started)
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
