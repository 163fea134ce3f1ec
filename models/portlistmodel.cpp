#include "models/portlistmodel.h"

#include "client/lizardapi.h"
#include "models/exposurelist.h"

#include <QMap>
#include <QUrl>

namespace lizard::models {

namespace {

// Where an exposure is reached, without its token: what the table shows.
QString plainUrl(const client::ExposedPort& e)
{
    QUrl url(e.url);
    url.setQuery(QString());
    url.setFragment(QString());
    return url.toString();
}

} // namespace

bool PortListModel::Row::operator==(const Row& o) const
{
    const auto sameExposure = [](const std::optional<client::ExposedPort>& a,
                                 const std::optional<client::ExposedPort>& b) {
        if (a.has_value() != b.has_value())
            return false;
        return !a ||
               (a->url == b->url && a->accessToken == b->accessToken && a->hostname == b->hostname);
    };
    return port == o.port && listening == o.listening && sameExposure(exposure, o.exposure);
}

PortListModel::PortListModel(QObject* parent) : QAbstractTableModel(parent)
{
    m_timer.setInterval(3000);
    connect(&m_timer, &QTimer::timeout, this, &PortListModel::refresh);
}

void PortListModel::setBackend(client::LizardApi* api, ExposureList* exposures)
{
    cancelScan();
    if (m_exposures)
        disconnect(m_exposures, nullptr, this, nullptr);
    m_api = api;
    m_exposures = exposures;
    if (m_exposures)
        connect(m_exposures, &ExposureList::changed, this, [this](const QString& id) {
            if (id == m_sandboxId)
                rebuild();
        });
    m_listening.clear();
    m_scanned = false;
    rebuild();
    refresh();
}

void PortListModel::setSandboxId(const QString& sandboxId)
{
    if (sandboxId == m_sandboxId)
        return;
    cancelScan();
    m_sandboxId = sandboxId;
    m_listening.clear();
    m_scanned = false;
    beginResetModel();
    m_rows.clear();
    endResetModel();
    rebuild();
    refresh();
}

void PortListModel::setPolling(bool on)
{
    if (on && !m_timer.isActive())
        m_timer.start();
    else if (!on)
        m_timer.stop();
}

void PortListModel::setPollInterval(int ms)
{
    m_timer.setInterval(qMax(100, ms));
}

void PortListModel::cancelScan()
{
    ++m_serial;
    if (m_scan)
        m_scan->cancel();
    m_scan = nullptr;
}

void PortListModel::refresh()
{
    if (!m_api || m_sandboxId.isEmpty() || m_scan)
        return;
    client::ExecOptions opts;
    opts.timeoutMs = 20000;
    opts.housekeeping = true; // polled every few seconds: not the agent's work
    const int serial = ++m_serial;
    m_scan = m_api->execArgv(
        m_sandboxId, portScanCommand(), opts, this,
        [this, serial](client::Outcome<client::ExecResult> o) { onScanned(serial, std::move(o)); });
}

void PortListModel::onScanned(int serial, client::Outcome<client::ExecResult> outcome)
{
    if (serial != m_serial)
        return; // a cancelled scan (another sandbox, another connection)
    m_scan = nullptr;
    if (!outcome.ok()) {
        if (outcome.error().kind != client::ApiError::Kind::Cancelled)
            emit refreshFailed(outcome.error());
        return;
    }
    m_listening = parsePortScan(outcome.value().stdoutText);
    m_scanned = true;
    rebuild();
    emit refreshed();
}

void PortListModel::rebuild()
{
    QMap<int, Row> byPort;
    for (const ListeningPort& p : std::as_const(m_listening)) {
        Row& r = byPort[p.port];
        r.port = p.port;
        r.listening = p;
    }
    if (m_exposures && !m_sandboxId.isEmpty()) {
        for (const client::ExposedPort& e : m_exposures->exposures(m_sandboxId)) {
            Row& r = byPort[e.port];
            r.port = e.port;
            r.exposure = e;
        }
    }
    applyRows(byPort.values());
}

// Both lists are sorted by port: a merge that removes, inserts and updates rows in place.
void PortListModel::applyRows(const QList<Row>& next)
{
    int i = 0;
    for (const Row& want : next) {
        while (i < m_rows.size() && m_rows[i].port < want.port) {
            beginRemoveRows({}, i, i);
            m_rows.removeAt(i);
            endRemoveRows();
        }
        if (i < m_rows.size() && m_rows[i].port == want.port) {
            if (!(m_rows[i] == want)) {
                m_rows[i] = want;
                emit dataChanged(index(i, 0), index(i, ColumnCount - 1));
            }
        } else {
            beginInsertRows({}, i, i);
            m_rows.insert(i, want);
            endInsertRows();
        }
        ++i;
    }
    if (i < m_rows.size()) {
        beginRemoveRows({}, i, int(m_rows.size()) - 1);
        m_rows.erase(m_rows.begin() + i, m_rows.end());
        endRemoveRows();
    }
}

const PortListModel::Row* PortListModel::rowAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows[row] : nullptr;
}

int PortListModel::rowOf(int port) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows[i].port == port)
            return i;
    return -1;
}

int PortListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PortListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PortListModel::data(const QModelIndex& index, int role) const
{
    const Row* r = index.isValid() ? rowAt(index.row()) : nullptr;
    if (!r || index.column() >= ColumnCount)
        return {};
    switch (role) {
    case PortRole:
        return r->port;
    case ListeningRole:
        return r->listening.has_value();
    case ExposedRole:
        return r->exposure.has_value();
    case Qt::TextAlignmentRole:
        return index.column() == PortColumn ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter))
                                            : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == UrlColumn && r->exposure)
            return QStringLiteral("Exposed at %1 (the access token is kept by the app)")
                .arg(plainUrl(*r->exposure));
        return {};
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case PortColumn:
        return r->port;
    case StateColumn:
        return r->listening ? QStringLiteral("listening") : QStringLiteral("not listening");
    case AddressColumn:
        return r->listening ? r->listening->addresses.join(QStringLiteral(", ")) : QString();
    case ProcessColumn:
        if (!r->listening || r->listening->pid == 0)
            return QString();
        return QStringLiteral("%1 (%2)").arg(r->listening->process).arg(r->listening->pid);
    case UrlColumn:
        return r->exposure ? plainUrl(*r->exposure) : QString();
    default:
        return {};
    }
}

QVariant PortListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case PortColumn:
        return QStringLiteral("Port");
    case StateColumn:
        return QStringLiteral("State");
    case AddressColumn:
        return QStringLiteral("Listens on");
    case ProcessColumn:
        return QStringLiteral("Process");
    case UrlColumn:
        return QStringLiteral("Exposed at");
    default:
        return {};
    }
}

} // namespace lizard::models
