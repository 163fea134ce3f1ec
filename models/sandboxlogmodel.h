#pragma once
// The system log of one sandbox as a table (Time, Level, Source, Message), following the
// server's log stream (client/logstream.h) for as long as the sandbox lives. Bounded: only the
// last maxLines() lines are kept (the oldest go first). LevelRole gives a row's level
// ("info", "warn", "error", "debug") so that views can make errors stand out. A lost connection
// (lizard-local restarted, say) is retried every few seconds, without repeating lines.

#include "client/logstream.h"

#include <QAbstractTableModel>
#include <QPointer>
#include <QVector>

namespace lizard::client {
class LizardApi;
}

namespace lizard::models {

class SandboxLogModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { TimeColumn, LevelColumn, SourceColumn, MessageColumn, ColumnCount };
    enum Role { LevelRole = Qt::UserRole + 1 };
    static constexpr int kDefaultMaxLines = 10000;
    static constexpr int kTailLines = 1000; // asked for when following starts

    explicit SandboxLogModel(QObject* parent = nullptr);
    ~SandboxLogModel() override;

    void setApi(client::LizardApi* api); // not owned; null: disconnected
    // Starts following this sandbox's log (empty: none); the previous lines go.
    void setSandbox(const QString& sandboxId);
    QString sandboxId() const { return m_sandboxId; }
    // Drops the lines shown so far; new ones keep coming.
    void clear();
    void setMaxLines(int n) { m_maxLines = qMax(1, n); }
    int maxLines() const { return m_maxLines; }
    const client::SandboxLogLine& line(int row) const { return m_lines.at(row); }

    // "Following", "The sandbox ended", or why the log is not available.
    QString statusText() const { return m_status; }
    bool following() const { return m_stream != nullptr; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation o, int role) const override;

signals:
    void statusChanged(const QString& text);

private:
    // Starts the stream; `resume`: after a lost connection, keeping the lines (those the new
    // stream repeats are skipped by their sequence number).
    void restart(bool resume = false);
    void stop();
    void append(const QList<client::SandboxLogLine>& received);
    void setStatus(const QString& text);

    QPointer<client::LizardApi> m_api;
    QPointer<client::LogStream> m_stream;
    QString m_sandboxId;
    QVector<client::SandboxLogLine> m_lines;
    int m_maxLines = kDefaultMaxLines;
    qint64 m_lastSeq = 0;     // the newest line received (Clear view keeps it)
    quint64 m_generation = 0; // a retry scheduled for an older stream does nothing
    QString m_status;
};

} // namespace lizard::models
