#include "models/desktop/desktopsession.h"

#include "client/lizardapi.h"

#include <QRegularExpression>

namespace lizard::models {

using client::ApiError;
using client::DesktopInfo;
using client::Outcome;

namespace {

bool isUnsupported(const ApiError& e)
{
    return e.code == QLatin1String("DESKTOP_NOT_SUPPORTED");
}

// What the SDK accepts as the screenshot command's answer: its last line, a PNG under /tmp.
QString screenshotPath(const QString& stdoutText)
{
    static const QRegularExpression path(
        QStringLiteral("^/tmp/lizard-screenshot-[A-Za-z0-9_-]+\\.png$"));
    const QStringList lines = stdoutText.trimmed().split(QLatin1Char('\n'));
    const QString last = lines.isEmpty() ? QString() : lines.last().trimmed();
    return path.match(last).hasMatch() ? last : QString();
}

ApiError screenshotError(const QString& message)
{
    ApiError e;
    e.kind = ApiError::Kind::Server;
    e.code = QStringLiteral("SCREENSHOT_FAILED");
    e.message = message;
    e.what = QStringLiteral("Screenshot");
    return e;
}

} // namespace

DesktopSession::DesktopSession(QObject* parent) : QObject(parent)
{
    // Often enough to notice an agent starting its desktop; each read is one small exec.
    m_poll.setInterval(2000);
    connect(&m_poll, &QTimer::timeout, this, &DesktopSession::refresh);
    // A read runs a command in the sandbox; one caught by a pause waits for the resume. It is
    // given up after a while, so that the next read can say the sandbox is paused.
    m_readLimit.setSingleShot(true);
    m_readLimit.setInterval(5000);
    connect(&m_readLimit, &QTimer::timeout, this, [this] {
        if (m_read)
            m_read->cancel();
    });
}

void DesktopSession::setBackend(client::LizardApi* api)
{
    m_api = api;
    setSandbox(QString());
}

void DesktopSession::setSandbox(const QString& sandboxId)
{
    if (m_read)
        m_read->cancel();
    m_sandboxId = sandboxId;
    m_support = Support::Unknown;
    m_info = DesktopInfo{};
    m_problem.clear();
    m_unsupported.clear();
    m_busy = false;
    emit changed();
    if (m_poll.isActive())
        refresh();
}

void DesktopSession::setFollowing(bool on)
{
    if (on == m_poll.isActive())
        return;
    if (on) {
        m_poll.start();
        refresh();
    } else {
        m_poll.stop();
    }
}

void DesktopSession::refresh()
{
    // One read at a time; a start or a stop answers with the state itself.
    if (!m_api || m_sandboxId.isEmpty() || m_read || m_busy || m_support == Support::No)
        return;
    m_read = m_api->desktopInfo(m_sandboxId, this, [this](Outcome<DesktopInfo> o) {
        m_readLimit.stop();
        apply(o, false);
    });
    m_readLimit.start();
}

void DesktopSession::apply(const Outcome<DesktopInfo>& outcome, bool asked)
{
    if (outcome.ok()) {
        m_support = Support::Yes;
        m_info = outcome.value();
        m_problem.clear();
    } else if (isUnsupported(outcome.error())) {
        m_support = Support::No;
        m_unsupported = outcome.error().message;
    } else if (outcome.error().kind != ApiError::Kind::Cancelled) {
        // The last state stays: a paused sandbox's screen is still what it was.
        m_problem = outcome.error().code == QLatin1String("SANDBOX_PAUSED")
                        ? QStringLiteral("The sandbox is paused: the screen shows it as it was, "
                                         "and goes on when it resumes.")
                        : outcome.error().toDisplayString();
        if (asked)
            emit failed(outcome.error());
    }
    emit changed();
}

void DesktopSession::setBusy(bool busy)
{
    m_busy = busy;
    emit changed();
}

bool DesktopSession::beginChange()
{
    if (!m_api || m_sandboxId.isEmpty() || m_busy)
        return false;
    if (m_read)
        m_read->cancel(); // the change answers with the state itself
    setBusy(true);
    return true;
}

void DesktopSession::start(QSize size)
{
    if (!beginChange())
        return;
    const QString id = m_sandboxId;
    m_api->startDesktop(id, size, this, [this, id](Outcome<DesktopInfo> o) {
        if (id != m_sandboxId)
            return;
        m_busy = false;
        apply(o, true);
    });
}

void DesktopSession::stop()
{
    if (!beginChange())
        return;
    const QString id = m_sandboxId;
    m_api->stopDesktop(id, this, [this, id](Outcome<client::Unit> o) {
        if (id != m_sandboxId)
            return;
        m_busy = false;
        if (o.ok()) {
            m_info.running = false;
            m_problem.clear();
            emit changed();
            refresh();
        } else {
            m_problem = o.error().toDisplayString();
            emit changed();
            emit failed(o.error());
        }
    });
}

void DesktopSession::takeScreenshot(ShotDone done)
{
    if (!m_api || m_sandboxId.isEmpty()) {
        done(screenshotError(QStringLiteral("no sandbox is selected")));
        return;
    }
    QPointer<client::LizardApi> api = m_api;
    const QString id = m_sandboxId;
    client::ExecOptions opts;
    opts.timeoutMs = 30000;
    const QStringList argv{QStringLiteral("lizard-desktop"), QStringLiteral("screenshot"),
                           QStringLiteral("--path")};
    api->execArgv(id, argv, opts, this, [this, api, id, done](Outcome<client::ExecResult> r) {
        if (!r.ok()) {
            done(r.error());
            return;
        }
        const QString path = screenshotPath(r.value().stdoutText);
        if (r.value().exitCode != 0 || path.isEmpty() || !api) {
            const QString said = (r.value().stderrText + r.value().stdoutText).trimmed().right(400);
            done(screenshotError(QStringLiteral("the screenshot command failed (exit %1): %2")
                                     .arg(r.value().exitCode)
                                     .arg(said.isEmpty() ? QStringLiteral("no output") : said)));
            return;
        }
        api->readFile(id, path, this, [this, api, id, path, done](Outcome<QByteArray> file) {
            // The sandbox keeps no copy: each screenshot is a new file under /tmp.
            if (api)
                api->removeFile(id, path, this, {});
            if (file.ok() && !file.value().startsWith("\x89PNG\r\n\x1a\n"))
                done(screenshotError(QStringLiteral("%1 is not a PNG").arg(path)));
            else
                done(file);
        });
    });
}

} // namespace lizard::models
