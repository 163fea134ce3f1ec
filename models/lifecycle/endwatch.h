#pragma once
// The deadlines of the sandboxes someone works in (the app hands it the sandboxes of its open
// notebooks and consoles): it reads each one's info every refreshIntervalMs and, each second,
// says once per deadline when one will end within kWarnBeforeMs, so the app can warn and offer
// to extend it. "End" is the default onTimeout, kill; a sandbox whose policy pauses it at its
// deadline keeps its files and memory and wakes on its next call, so it is not warned of.

#include "client/types.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>
#include <functional>

namespace lizard::client {
class LizardApi;
}

namespace lizard::models {

class SandboxEndWatch : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kWarnBeforeMs = 5 * 60000;

    explicit SandboxEndWatch(QObject* parent = nullptr);

    void setApi(client::LizardApi* api); // not owned; forgets everything
    // The sandboxes to watch, asked every second; one not seen before is read at once.
    void setSource(std::function<QStringList()> source) { m_source = std::move(source); }
    void setRefreshInterval(int ms) { m_refreshMs = ms; }
    // Reads the sandbox again now (after an extend).
    void refetch(const QString& sandboxId);
    // Its info as last read; false when not known.
    bool info(const QString& sandboxId, client::SandboxInfo* out) const;
    // Those it warned of whose deadline is still within the warning time.
    QStringList warnedIds() const { return m_warned.keys(); }

signals:
    void endingSoon(const lizard::client::SandboxInfo& info); // once per deadline
    void noLongerEnding(const QString& sandboxId); // extended, paused, gone or not watched now

private:
    void tick();
    void fetch(const QString& sandboxId);
    void evaluate(const QString& sandboxId);
    void forget(const QString& sandboxId);

    QPointer<client::LizardApi> m_api;
    std::function<QStringList()> m_source;
    int m_refreshMs = 15000;
    QHash<QString, client::SandboxInfo> m_infos;
    QHash<QString, qint64> m_readAt; // m_clock's ms when last asked
    QSet<QString> m_inFlight;
    QHash<QString, QDateTime> m_warned; // the deadline each warning was for
    QElapsedTimer m_clock;
    QTimer m_tick;
};

} // namespace lizard::models
