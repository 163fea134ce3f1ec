#include "models/terminals/terminalsessions.h"

#include "client/lizardapi.h"

#include <QSet>

namespace lizard::models {

using client::ApiError;
using client::Outcome;
using client::TerminalInfo;

namespace {

bool sameRow(const TerminalInfo& a, const TerminalInfo& b)
{
    return a.name == b.name && a.cmd == b.cmd && a.status == b.status && a.exitCode == b.exitCode &&
           a.cols == b.cols && a.rows == b.rows && a.clients == b.clients &&
           a.createdAt == b.createdAt && a.user == b.user && a.cwd == b.cwd && a.pid == b.pid &&
           a.endedAt == b.endedAt;
}

} // namespace

TerminalSessions::TerminalSessions(client::LizardApi* api, QString sandboxId, QObject* parent)
    : QAbstractListModel(parent), m_api(api), m_sandboxId(std::move(sandboxId)),
      m_unsupportedReason(tr("This server has no terminals (it answers 404 for /terminals); the "
                             "Console tab still runs commands"))
{
}

bool TerminalSessions::connected(const QString& what)
{
    if (m_api != nullptr)
        return true;
    emit failed(ApiError::notConnected(what));
    return false;
}

void TerminalSessions::refresh()
{
    if (!connected(tr("List terminals")))
        return;
    m_api->listTerminals(m_sandboxId, this, [this](Outcome<QList<TerminalInfo>> outcome) {
        if (!outcome.ok())
            return onError(outcome.error());
        setSupported(true);
        apply(outcome.value());
        emit refreshed();
    });
}

void TerminalSessions::create(const QString& cmd, const QString& cwd, int cols, int rows)
{
    if (!connected(tr("Open a terminal")))
        return;
    client::CreateTerminalRequest req;
    req.shellCmd = cmd;
    req.cwd = cwd;
    req.cols = cols;
    req.rows = rows;
    m_api->createTerminal(m_sandboxId, req, this, [this](Outcome<TerminalInfo> outcome) {
        if (!outcome.ok())
            return onError(outcome.error());
        setSupported(true);
        QList<TerminalInfo> withNew = m_rows;
        if (rowOf(outcome.value().terminalId) < 0)
            withNew.append(outcome.value());
        apply(withNew);
        emit created(outcome.value());
        refresh();
    });
}

void TerminalSessions::close(const QString& terminalId)
{
    if (!connected(tr("Close the terminal")))
        return;
    m_api->closeTerminal(m_sandboxId, terminalId, this, [this](Outcome<client::Unit> outcome) {
        if (!outcome.ok())
            emit failed(outcome.error());
        refresh();
    });
}

void TerminalSessions::rename(const QString& terminalId, const QString& name)
{
    if (!connected(tr("Rename the terminal")))
        return;
    m_api->updateTerminal(m_sandboxId, terminalId, 0, 0, name, this,
                          [this](Outcome<TerminalInfo> outcome) {
                              if (!outcome.ok()) {
                                  emit failed(outcome.error()); // a 404: that terminal is gone
                                  return refresh();
                              }
                              QList<TerminalInfo> rows = m_rows;
                              const int row = rowOf(outcome.value().terminalId);
                              if (row >= 0)
                                  rows[row] = outcome.value();
                              apply(rows);
                          });
}

void TerminalSessions::onError(const ApiError& error)
{
    const bool routeMissing = error.httpStatus == 501 || error.httpStatus == 404;
    if (!routeMissing || m_api == nullptr) {
        emit failed(error);
        return;
    }
    if (error.httpStatus == 501) {
        setSupported(false);
        return;
    }
    // lizard-local answers 404 for an unknown sandbox too: only a sandbox that exists proves the
    // 404 was for the route.
    m_api->getSandbox(m_sandboxId, this, [this, error](Outcome<client::SandboxInfo> sandbox) {
        if (sandbox.ok())
            setSupported(false);
        else
            emit failed(error);
    });
}

void TerminalSessions::setSupported(bool supported)
{
    if (m_supported == supported)
        return;
    m_supported = supported;
    if (!supported)
        apply({});
    emit supportedChanged(supported);
}

void TerminalSessions::apply(const QList<TerminalInfo>& fresh)
{
    QSet<QString> freshIds;
    for (const TerminalInfo& t : fresh)
        freshIds.insert(t.terminalId);
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        if (!freshIds.contains(m_rows.at(row).terminalId)) {
            beginRemoveRows({}, row, row);
            m_rows.removeAt(row);
            endRemoveRows();
        }
    }
    for (int i = 0; i < fresh.size(); ++i) {
        const TerminalInfo& t = fresh.at(i);
        const int at = rowOf(t.terminalId);
        if (at < 0) {
            beginInsertRows({}, i, i);
            m_rows.insert(i, t);
            endInsertRows();
            continue;
        }
        if (at != i) {
            beginMoveRows({}, at, at, {}, i);
            m_rows.move(at, i);
            endMoveRows();
        }
        if (!sameRow(m_rows.at(i), t)) {
            m_rows[i] = t;
            emit dataChanged(index(i), index(i));
        }
    }
}

int TerminalSessions::rowOf(const QString& terminalId) const
{
    for (int row = 0; row < m_rows.size(); ++row)
        if (m_rows.at(row).terminalId == terminalId)
            return row;
    return -1;
}

QString TerminalSessions::titleOf(const TerminalInfo& terminal)
{
    if (!terminal.name.isEmpty())
        return terminal.name;
    if (!terminal.cmd.isEmpty())
        return terminal.cmd.join(QLatin1Char(' '));
    return tr("shell");
}

int TerminalSessions::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant TerminalSessions::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TerminalInfo& t = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        if (!t.isRunning() && t.exitCode)
            return tr("%1 (exited %2)").arg(titleOf(t)).arg(*t.exitCode);
        return t.isRunning() ? titleOf(t) : tr("%1 (exited)").arg(titleOf(t));
    case Qt::ToolTipRole:
        return tr("%1 — %2×%3, %n client(s)", nullptr, t.clients)
            .arg(t.cmd.join(QLatin1Char(' ')))
            .arg(t.cols)
            .arg(t.rows);
    case TerminalIdRole:
        return t.terminalId;
    case NameRole:
        return t.name;
    case CommandRole:
        return t.cmd.join(QLatin1Char(' '));
    case StatusRole:
        return t.status;
    case RunningRole:
        return t.isRunning();
    case ExitCodeRole:
        return t.exitCode ? QVariant(*t.exitCode) : QVariant();
    case ColsRole:
        return t.cols;
    case RowsRole:
        return t.rows;
    case ClientsRole:
        return t.clients;
    case CreatedAtRole:
        return t.createdAt;
    default:
        return {};
    }
}

QHash<int, QByteArray> TerminalSessions::roleNames() const
{
    QHash<int, QByteArray> names = QAbstractListModel::roleNames();
    names.insert(TerminalIdRole, "terminalId");
    names.insert(NameRole, "name");
    names.insert(CommandRole, "command");
    names.insert(StatusRole, "status");
    names.insert(RunningRole, "running");
    names.insert(ExitCodeRole, "exitCode");
    names.insert(ColsRole, "cols");
    names.insert(RowsRole, "rows");
    names.insert(ClientsRole, "clients");
    names.insert(CreatedAtRole, "createdAt");
    return names;
}

} // namespace lizard::models
