#include "models/activity/activitypulse.h"

#include "client/lizardapi.h"

namespace lizard::models {

ActivityPulse::ActivityPulse(QObject* parent) : QObject(parent)
{
    m_timer.setInterval(2000);
    connect(&m_timer, &QTimer::timeout, this, &ActivityPulse::poll);
}

void ActivityPulse::setApi(client::LizardApi* api)
{
    m_api = api;
    m_states.clear();
    m_active.clear();
    if (api)
        m_timer.start();
    else
        m_timer.stop();
    emit changed();
}

void ActivityPulse::setSandboxes(const QStringList& sandboxIds)
{
    const QSet<QString> wanted(sandboxIds.begin(), sandboxIds.end());
    for (auto it = m_states.begin(); it != m_states.end();)
        it = wanted.contains(it.key()) ? std::next(it) : m_states.erase(it);
    for (const QString& id : sandboxIds)
        if (!m_states.contains(id))
            m_states.insert(id, State{});
    check();
}

bool ActivityPulse::isActive(const QString& sandboxId) const
{
    return m_active.contains(sandboxId);
}

void ActivityPulse::poll()
{
    check(); // a sandbox goes quiet without any answer
    if (!m_api)
        return;
    for (auto it = m_states.begin(); it != m_states.end(); ++it) {
        State& st = it.value();
        if (st.inFlight || st.unsupported)
            continue;
        st.inFlight = true;
        const QString id = it.key();
        m_api->activity(
            id, st.since, 500, this, [this, id](client::Outcome<client::ActivityPage> r) {
                auto found = m_states.find(id);
                if (found == m_states.end())
                    return;
                State& s = found.value();
                s.inFlight = false;
                if (!r) {
                    s.unsupported = r.error().httpStatus == 404 || r.error().httpStatus == 501;
                    return;
                }
                for (const auto& e : r.value().entries) {
                    if ((e.kind == QLatin1String("exec") || e.kind == QLatin1String("runCode")) &&
                        !e.housekeeping)
                        s.lastEnd = QDateTime::fromString(e.end, Qt::ISODateWithMs);
                }
                s.since = std::max(s.since, r.value().lastSeq);
                check();
            });
    }
}

void ActivityPulse::check()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QSet<QString> active;
    for (auto it = m_states.cbegin(); it != m_states.cend(); ++it)
        if (it->lastEnd.isValid() && it->lastEnd.msecsTo(now) < activeWindowMs())
            active.insert(it.key());
    if (active != m_active) {
        m_active = active;
        emit changed();
    }
}

} // namespace lizard::models
