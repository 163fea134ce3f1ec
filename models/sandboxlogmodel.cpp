#include "models/sandboxlogmodel.h"

#include "client/lizardapi.h"

#include <QDateTime>
#include <QTimer>

namespace lizard::models {

SandboxLogModel::SandboxLogModel(QObject* parent) : QAbstractTableModel(parent) {}

SandboxLogModel::~SandboxLogModel()
{
    stop();
}

void SandboxLogModel::setApi(client::LizardApi* api)
{
    if (m_api == api)
        return;
    m_api = api;
    restart();
}

void SandboxLogModel::setSandbox(const QString& sandboxId)
{
    if (m_sandboxId == sandboxId && (m_stream || sandboxId.isEmpty()))
        return;
    m_sandboxId = sandboxId;
    restart();
}

void SandboxLogModel::clear()
{
    if (m_lines.isEmpty())
        return;
    beginResetModel();
    m_lines.clear();
    endResetModel();
}

void SandboxLogModel::stop()
{
    if (auto* s = m_stream.data()) {
        m_stream = nullptr;
        s->disconnect(this);
        s->cancel();
        s->deleteLater();
    }
}

void SandboxLogModel::restart(bool resume)
{
    stop();
    ++m_generation;
    if (!resume) {
        clear();
        m_lastSeq = 0;
    }
    if (!m_api || m_sandboxId.isEmpty()) {
        setStatus(m_sandboxId.isEmpty() ? tr("No sandbox selected") : tr("Not connected"));
        return;
    }
    auto* stream = m_api->followLogs(m_sandboxId, kTailLines);
    stream->setParent(this);
    m_stream = stream;
    setStatus(tr("Following the log of %1").arg(m_sandboxId));
    connect(stream, &client::LogStream::lines, this, &SandboxLogModel::append);
    connect(stream, &client::LogStream::ended, this, [this, stream] {
        m_stream = nullptr;
        stream->deleteLater();
        setStatus(tr("The sandbox ended; its log ends here"));
    });
    connect(stream, &client::LogStream::failed, this, [this, stream](const client::ApiError& e) {
        m_stream = nullptr;
        stream->deleteLater();
        using Kind = client::ApiError::Kind;
        if (e.kind == Kind::Cancelled)
            return;
        if (e.kind != Kind::Network && e.kind != Kind::Timeout &&
            !(e.kind == Kind::Server && e.httpStatus >= 500 && e.httpStatus != 501)) {
            setStatus(tr("Log unavailable: %1").arg(e.message));
            return;
        }
        setStatus(tr("Connection lost (%1); trying again…").arg(e.message));
        QTimer::singleShot(3000, this, [this, generation = m_generation] {
            if (generation == m_generation && !m_stream)
                restart(true);
        });
    });
}

void SandboxLogModel::append(const QList<client::SandboxLogLine>& received)
{
    QList<client::SandboxLogLine> lines;
    for (const auto& l : received) {
        if (l.seq > 0 && l.seq <= m_lastSeq)
            continue; // already shown before a reconnect
        m_lastSeq = qMax(m_lastSeq, l.seq);
        lines.append(l);
    }
    if (lines.isEmpty())
        return;
    // Drop what would not be kept anyway, then make room at the front.
    const int incoming = int(qMin<qsizetype>(lines.size(), m_maxLines));
    const int drop = qMax(0, int(m_lines.size()) + incoming - m_maxLines);
    if (drop > 0) {
        beginRemoveRows({}, 0, drop - 1);
        m_lines.remove(0, drop);
        endRemoveRows();
    }
    const int first = int(m_lines.size());
    beginInsertRows({}, first, first + incoming - 1);
    for (qsizetype i = lines.size() - incoming; i < lines.size(); ++i)
        m_lines.append(lines.at(i));
    endInsertRows();
}

void SandboxLogModel::setStatus(const QString& text)
{
    if (m_status == text)
        return;
    m_status = text;
    emit statusChanged(text);
}

int SandboxLogModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

int SandboxLogModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SandboxLogModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_lines.size())
        return {};
    const client::SandboxLogLine& l = m_lines.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return QDateTime::fromMSecsSinceEpoch(l.ts).toString(QStringLiteral("HH:mm:ss.zzz"));
        case LevelColumn:
            return l.level.toUpper();
        case SourceColumn:
            return l.source;
        case MessageColumn:
            return l.message;
        }
        return {};
    case Qt::ToolTipRole:
        if (index.column() == TimeColumn)
            return QDateTime::fromMSecsSinceEpoch(l.ts).toString(Qt::ISODateWithMs);
        return index.column() == MessageColumn ? l.message : QVariant();
    case LevelRole:
        return l.level;
    }
    return {};
}

QVariant SandboxLogModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case LevelColumn:
        return tr("Level");
    case SourceColumn:
        return tr("Source");
    case MessageColumn:
        return tr("Message");
    }
    return {};
}

} // namespace lizard::models
