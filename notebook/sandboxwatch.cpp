#include "notebook/sandboxwatch.h"

#include "client/lizardapi.h"

#include <algorithm>

namespace lizard::notebook {

namespace {
// The answer to a run or check counts as fresh this long: a run right after a poll needs no
// extra round trip, one after a quiet spell asks first (the sandbox may have been paused).
constexpr int kFreshMs = 2000;
constexpr int kResumeTries = 120; // × 500 ms
} // namespace

SandboxWatch::SandboxWatch(QObject* parent) : QObject(parent)
{
    m_poll.setInterval(kPollMs);
    connect(&m_poll, &QTimer::timeout, this, [this] { checkNow(); });
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &SandboxWatch::tick);
}

void SandboxWatch::setApi(client::LizardApi* api)
{
    m_api = api;
    ++m_generation;
    if (!api) {
        m_poll.stop();
        m_tick.stop();
        setState(State::Unknown);
        return;
    }
    m_poll.start();
    m_tick.start();
    checkNow();
}

void SandboxWatch::setSandbox(const QString& sandboxId)
{
    if (sandboxId == m_sandboxId)
        return;
    m_sandboxId = sandboxId;
    ++m_generation;
    m_endAt = {};
    m_template.clear();
    m_size.clear();
    m_lifetimeMs = 0;
    m_extending = false;
    m_extensions = 0;
    m_lastCheck.invalidate();
    m_lastActivity.start(); // opening a notebook on it, or moving it there, is using it
    m_state = State::Unknown;
    emit changed();
    if (m_api)
        checkNow();
}

void SandboxWatch::setAutoExtend(bool on)
{
    if (on == m_autoExtend)
        return;
    m_autoExtend = on;
    emit changed();
}

void SandboxWatch::noteActivity()
{
    m_lastActivity.start();
}

void SandboxWatch::setBusy(bool busy)
{
    m_busy = busy;
    noteActivity();
}

bool SandboxWatch::inUse() const
{
    return m_busy ||
           (m_lastActivity.isValid() && m_lastActivity.elapsed() < qint64(kActiveMinutes) * 60000);
}

QString SandboxWatch::endedText() const
{
    return QStringLiteral("This notebook's sandbox %1 has ended").arg(m_sandboxId);
}

void SandboxWatch::checkNow(std::function<void()> done)
{
    if (!m_api || m_sandboxId.isEmpty()) {
        if (done)
            done();
        return;
    }
    const int generation = m_generation;
    m_api->getSandbox(m_sandboxId, this,
                      [this, generation, done](client::Outcome<client::SandboxInfo> outcome) {
                          if (generation == m_generation) {
                              if (outcome) {
                                  m_lastCheck.start();
                                  apply(outcome.value());
                              } else if (outcome.error().kind == client::ApiError::Kind::NotFound) {
                                  m_lastCheck.start();
                                  setState(State::Ended);
                              }
                              // Other failures (network, server busy) say nothing about the
                              // sandbox: the state stays as it was and the next poll asks again.
                          }
                          if (done)
                              done();
                      });
}

void SandboxWatch::apply(const client::SandboxInfo& info)
{
    m_template = info.templateName;
    m_size = info.size;
    if (m_lifetimeMs == 0 && info.endAt.isValid() && info.startedAt.isValid())
        m_lifetimeMs = std::max<qint64>(1000, info.startedAt.msecsTo(info.endAt));
    m_endAt = info.endAt;
    const QString& s = info.status;
    if (s == u"paused" || s == u"pausing")
        setState(State::Paused);
    else if (s == u"stopped" || s == u"deleted" || s == u"failed" || s == u"killed")
        setState(State::Ended);
    else
        setState(State::Running);
    emit changed();
}

void SandboxWatch::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    emit changed();
    if (state == State::Ended)
        emit ended(m_sandboxId);
}

void SandboxWatch::tick()
{
    if (m_state != State::Running || !m_endAt.isValid())
        return;
    const qint64 left = QDateTime::currentDateTimeUtc().msecsTo(m_endAt);
    if (left <= 0) {
        if (!m_lastCheck.isValid() || m_lastCheck.elapsed() > 1000)
            checkNow(); // past its deadline: the server says whether it is gone
        return;
    }
    // Short-lived sandboxes (a test's seconds) are extended at half their lifetime.
    const qint64 before = std::min<qint64>(kExtendBeforeMs, m_lifetimeMs / 2);
    if (m_autoExtend && inUse() && !m_extending && m_lifetimeMs > 0 && left < before)
        extend();
}

void SandboxWatch::extend()
{
    m_extending = true;
    const int generation = m_generation;
    const qint64 lifetime = m_lifetimeMs;
    m_api->setSandboxTimeout(m_sandboxId, lifetime, this,
                             [this, generation, lifetime](client::Outcome<client::Unit> outcome) {
                                 if (generation != m_generation)
                                     return;
                                 m_extending = false;
                                 if (outcome) {
                                     ++m_extensions;
                                     m_endAt = QDateTime::currentDateTimeUtc().addMSecs(lifetime);
                                     emit changed();
                                 }
                                 checkNow(); // the server's own deadline (or that it is gone)
                             });
}

void SandboxWatch::ensureRunning(std::function<void(QString error)> done)
{
    if (!m_api) { // the runner says it has no connection
        done({});
        return;
    }
    const auto decide = [this, done] {
        switch (m_state) {
        case State::Ended:
            done(endedText() +
                 QStringLiteral(". Your cells and outputs are kept: use Attach to sandbox… or "
                                "Run on a new sandbox in the notebook's header to go on."));
            return;
        case State::Paused: {
            emit resuming();
            const int generation = m_generation;
            m_api->resumeSandbox(
                m_sandboxId, this, [this, generation, done](client::Outcome<client::Unit> outcome) {
                    if (generation != m_generation)
                        return done(QStringLiteral("the notebook moved to another sandbox"));
                    if (!outcome && outcome.error().kind != client::ApiError::Kind::Conflict)
                        return done(QStringLiteral("resuming sandbox %1 failed: %2")
                                        .arg(m_sandboxId, outcome.error().toDisplayString()));
                    waitRunning(kResumeTries, done);
                });
            return;
        }
        case State::Running:
        case State::Unknown: // the run itself says what is wrong
            done({});
            return;
        }
    };
    if (m_state == State::Running && m_lastCheck.isValid() && m_lastCheck.elapsed() < kFreshMs)
        decide();
    else
        checkNow(decide);
}

void SandboxWatch::waitRunning(int triesLeft, std::function<void(QString)> done)
{
    checkNow([this, triesLeft, done] {
        if (m_state == State::Running)
            return done({});
        if (m_state == State::Ended)
            return done(endedText());
        if (triesLeft <= 0)
            return done(
                QStringLiteral("sandbox %1 did not resume within a minute").arg(m_sandboxId));
        QTimer::singleShot(500, this,
                           [this, triesLeft, done] { waitRunning(triesLeft - 1, done); });
    });
}

} // namespace lizard::notebook
