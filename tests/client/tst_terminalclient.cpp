// Terminals through LizardApi against a real lizard-local: a shell on a PTY over the WebSocket
// (client/websocket.h) — typing and output, resize, Ctrl+C, two links on one terminal, the
// replay on a new attach, the exit — the refusals (no key: 401, unknown terminal: 404) and the
// REST calls (list, rename, resize, signal, close). The fixture kills its sandbox at the end.

#include "support/apiwait.h"
#include "support/sandboxfixture.h"

#include <QSignalSpy>
#include <QTest>
#include <memory>

using namespace lizard::client;
using lizard::test::ApiWaiter;

constexpr int kWaitMs = 20000;

// Everything a link reported.
struct LinkLog
{
    QByteArray out;
    bool attached = false;
    int cols = 0, rows = 0;
    QString status;
    qint64 replayBytes = -1;
    QList<QPair<int, int>> resizes;
    std::optional<int> exitCode;
    std::optional<ApiError> disconnected;
    QStringList errors;

    void watch(TerminalLink* link)
    {
        QObject::connect(link, &TerminalLink::attached, link,
                         [this](int c, int r, const QString& s, qint64 replay) {
                             attached = true;
                             cols = c;
                             rows = r;
                             status = s;
                             replayBytes = replay;
                         });
        QObject::connect(link, &TerminalLink::output, link,
                         [this](const QByteArray& b) { out += b; });
        QObject::connect(link, &TerminalLink::resized, link, [this](int c, int r) {
            resizes.append({c, r});
        });
        QObject::connect(link, &TerminalLink::exited, link, [this](int code) { exitCode = code; });
        QObject::connect(link, &TerminalLink::disconnected, link,
                         [this](const ApiError& e) { disconnected = e; });
        QObject::connect(link, &TerminalLink::errorMessage, link,
                         [this](const QString& code, const QString& message) {
                             errors << code + ": " + message;
                         });
    }
};

class TestTerminalClient : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }
    void createAndType();
    void resizeShowsInStty();
    void ctrlCInterrupts();
    void secondLinkSeesTheSameOutput();
    void newAttachReplaysEarlierOutput();
    void withoutReplay();
    void keylessUpgradeIs401();
    void unknownTerminalIs404();
    void listRenameResizeSignal();
    void bulkInputAndOutput();
    void staysOpenPastTheServersPings();
    void exitReportsTheCode();
    void closeEndsTheSession();

private:
    LizardApi& api() { return m_fx.api(); }
    QString sb() const { return m_fx.sandboxId(); }
    QString createShell(const QString& name = {});
    // Attaches and waits for the hello; the link is owned by the test object.
    TerminalLink* attach(const QString& tid, LinkLog* log, bool replay = true);
    bool waitOutput(const LinkLog& log, const QByteArray& text, int timeoutMs = kWaitMs);

    lizard::test::SandboxFixture m_fx;
    QString m_tid;
    TerminalLink* m_link = nullptr;
    LinkLog m_log;
};

void TestTerminalClient::initTestCase()
{
    // Silent clients dropped after 6 s (pings every 3 s), so the keep-alive case is short.
    m_fx.setServerArgs({QStringLiteral("--websocket-idle"), QStringLiteral("6")});
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
}

void TestTerminalClient::cleanupTestCase()
{
    delete m_link;
    m_link = nullptr;
    m_fx.stop();
}

QString TestTerminalClient::createShell(const QString& name)
{
    CreateTerminalRequest req;
    req.shellCmd = QStringLiteral("/bin/sh");
    req.cols = 80;
    req.rows = 24;
    req.name = name;
    ApiWaiter<TerminalInfo> made;
    api().createTerminal(sb(), req, this, made.done());
    if (!made.wait() || !made.ok()) {
        qWarning().noquote() << "create terminal:" << made.why();
        return {};
    }
    return made.value().terminalId;
}

TerminalLink* TestTerminalClient::attach(const QString& tid, LinkLog* log, bool replay)
{
    TerminalLink* link = api().attachTerminal(sb(), tid, replay);
    link->setParent(this);
    log->watch(link);
    if (!QTest::qWaitFor([log] { return log->attached || log->disconnected; }, kWaitMs))
        qWarning() << "no hello in time";
    if (log->disconnected)
        qWarning().noquote() << "attach failed:" << log->disconnected->toDisplayString();
    return link;
}

bool TestTerminalClient::waitOutput(const LinkLog& log, const QByteArray& text, int timeoutMs)
{
    const bool seen = QTest::qWaitFor([&] { return log.out.contains(text); }, timeoutMs);
    if (!seen)
        qWarning().noquote() << "output so far:" << log.out.right(2000);
    return seen;
}

void TestTerminalClient::createAndType()
{
    m_tid = createShell(QStringLiteral("main"));
    QVERIFY(m_tid.startsWith(QLatin1String("t-")));
    m_link = attach(m_tid, &m_log);
    QVERIFY(m_log.attached);
    QVERIFY(m_link->isAttached());
    QCOMPARE(m_log.cols, 80);
    QCOMPARE(m_log.rows, 24);
    QCOMPARE(m_log.status, QStringLiteral("running"));
    QVERIFY(m_link->sendInput("echo hi-$((1+1))\n"));
    // The echo of the typed line says hi-$((1+1)); only the shell's answer says hi-2.
    QVERIFY(waitOutput(m_log, "hi-2"));
    QVERIFY(!m_log.disconnected);
}

void TestTerminalClient::resizeShowsInStty()
{
    QVERIFY(m_link != nullptr && m_link->isAttached());
    QVERIFY(m_link->resize(100, 30));
    QTRY_VERIFY_WITH_TIMEOUT(m_log.resizes.contains(qMakePair(100, 30)), kWaitMs);
    m_link->sendInput("stty size\n");
    QVERIFY(waitOutput(m_log, "30 100"));
}

void TestTerminalClient::ctrlCInterrupts()
{
    QVERIFY(m_link != nullptr && m_link->isAttached());
    m_link->sendInput("sleep 100; echo not-$((0+1))-interrupted\n");
    QTest::qWait(500); // the shell has started sleep
    m_link->sendInput("\x03");
    m_link->sendInput("echo back-$((2+3))\n");
    // Within seconds, not 100: the prompt came back.
    QVERIFY(waitOutput(m_log, "back-5", 10000));
    QVERIFY(!m_log.out.contains("not-1-interrupted"));
}

void TestTerminalClient::secondLinkSeesTheSameOutput()
{
    QVERIFY(m_link != nullptr && m_link->isAttached());
    LinkLog second;
    std::unique_ptr<TerminalLink> other(attach(m_tid, &second, false));
    QVERIFY(second.attached);
    QCOMPARE(second.cols, 100); // the size the first link set
    ApiWaiter<TerminalInfo> info;
    api().getTerminal(sb(), m_tid, this, info.done());
    LIZ_AWAIT_OK(info);
    QCOMPARE(info.value().clients, 2);
    m_link->sendInput("echo both-$((3+4))\n");
    QVERIFY(waitOutput(m_log, "both-7"));
    QVERIFY(waitOutput(second, "both-7"));
    // And the second one types too.
    other->sendInput("echo from-second-$((4+4))\n");
    QVERIFY(waitOutput(m_log, "from-second-8"));
    other->detach();
    QVERIFY(!second.disconnected); // nothing after detach
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            ApiWaiter<TerminalInfo> after;
            api().getTerminal(sb(), m_tid, this, after.done());
            return after.wait() && after.ok() && after.value().clients == 1;
        }(),
        kWaitMs);
}

void TestTerminalClient::newAttachReplaysEarlierOutput()
{
    QVERIFY(m_link != nullptr);
    m_link->detach();
    QVERIFY(!m_link->isAttached());
    delete m_link;
    m_link = nullptr;
    QVERIFY(!m_log.disconnected);

    m_log = LinkLog();
    m_link = attach(m_tid, &m_log);
    QVERIFY(m_log.attached);
    QVERIFY(m_log.replayBytes > 0);
    // Everything earlier, from before this link existed.
    QVERIFY(waitOutput(m_log, "hi-2"));
    QVERIFY(waitOutput(m_log, "both-7"));
    m_link->sendInput("echo again-$((5+5))\n");
    QVERIFY(waitOutput(m_log, "again-10"));
}

void TestTerminalClient::withoutReplay()
{
    LinkLog log;
    std::unique_ptr<TerminalLink> link(attach(m_tid, &log, false));
    QVERIFY(log.attached);
    QCOMPARE(log.replayBytes, qint64(0));
    QTest::qWait(300);
    QVERIFY(!log.out.contains("hi-2"));
}

void TestTerminalClient::keylessUpgradeIs401()
{
    LizardApi keyless(Endpoint{m_fx.server().url(), QString()});
    LinkLog log;
    std::unique_ptr<TerminalLink> link(keyless.attachTerminal(sb(), m_tid));
    log.watch(link.get());
    QTRY_VERIFY_WITH_TIMEOUT(log.disconnected.has_value(), kWaitMs);
    QVERIFY(!log.attached);
    QCOMPARE(log.disconnected->httpStatus, 401);
    QCOMPARE(log.disconnected->kind, ApiError::Kind::Authentication);
    QVERIFY(!log.disconnected->message.isEmpty());
}

void TestTerminalClient::unknownTerminalIs404()
{
    LinkLog log;
    std::unique_ptr<TerminalLink> link(api().attachTerminal(sb(), QStringLiteral("t-nosuch")));
    log.watch(link.get());
    QTRY_VERIFY_WITH_TIMEOUT(log.disconnected.has_value(), kWaitMs);
    QCOMPARE(log.disconnected->httpStatus, 404);
    QCOMPARE(log.disconnected->kind, ApiError::Kind::NotFound);

    ApiWaiter<TerminalInfo> get;
    api().getTerminal(sb(), QStringLiteral("t-nosuch"), this, get.done());
    QVERIFY(get.wait());
    QVERIFY(!get.ok());
    QCOMPARE(get.error().httpStatus, 404);
}

void TestTerminalClient::listRenameResizeSignal()
{
    ApiWaiter<QList<TerminalInfo>> list;
    api().listTerminals(sb(), this, list.done());
    LIZ_AWAIT_OK(list);
    const auto found =
        std::find_if(list.value().begin(), list.value().end(),
                     [this](const TerminalInfo& t) { return t.terminalId == m_tid; });
    QVERIFY(found != list.value().end());
    QCOMPARE(found->name, QStringLiteral("main"));
    // A command line runs through /bin/sh -c.
    QCOMPARE(found->cmd.value(found->cmd.size() - 1), QStringLiteral("/bin/sh"));
    QVERIFY(found->isRunning());
    QVERIFY(!found->exitCode.has_value());
    QVERIFY(found->pid > 0);
    QVERIFY(found->createdAt.isValid());
    QCOMPARE(found->sandboxId, sb());

    ApiWaiter<TerminalInfo> renamed;
    api().updateTerminal(sb(), m_tid, 0, 0, QStringLiteral("build"), this, renamed.done());
    LIZ_AWAIT_OK(renamed);
    QCOMPARE(renamed.value().name, QStringLiteral("build"));

    // A resize over REST reaches the attached link as a resize message.
    ApiWaiter<TerminalInfo> resized;
    api().updateTerminal(sb(), m_tid, 90, 20, std::nullopt, this, resized.done());
    LIZ_AWAIT_OK(resized);
    QCOMPARE(resized.value().cols, 90);
    QCOMPARE(resized.value().rows, 20);
    QCOMPARE(resized.value().name, QStringLiteral("build"));
    QTRY_VERIFY_WITH_TIMEOUT(m_log.resizes.contains(qMakePair(90, 20)), kWaitMs);

    // SIGINT over REST, as Ctrl+C does it over the link.
    m_link->sendInput("sleep 100; echo slept-$((1+1))\n");
    QTest::qWait(500);
    ApiWaiter<Unit> signalled;
    api().signalTerminal(sb(), m_tid, QStringLiteral("SIGINT"), this, signalled.done());
    LIZ_AWAIT_OK(signalled);
    m_link->sendInput("echo after-signal-$((6+6))\n");
    QVERIFY(waitOutput(m_log, "after-signal-12", 10000));
    QVERIFY(!m_log.out.contains("slept-2"));

    // The same over the link's control message.
    m_link->sendInput("sleep 100; echo slept-$((1+1))\n");
    QTest::qWait(500);
    QVERIFY(m_link->sendSignal(QStringLiteral("SIGINT")));
    m_link->sendInput("echo after-ws-signal-$((7+7))\n");
    QVERIFY(waitOutput(m_log, "after-ws-signal-14", 10000));
    QVERIFY(!m_log.out.contains("slept-2"));
    QVERIFY2(m_log.errors.isEmpty(), qPrintable(m_log.errors.join("; ")));
}

// 200 kB typed (in frames of 64 KiB at most) arrive whole and unchanged; 3 MB of output
// arrive whole.
void TestTerminalClient::bulkInputAndOutput()
{
    const QString tid = createShell();
    QVERIFY(!tid.isEmpty());
    LinkLog log;
    std::unique_ptr<TerminalLink> link(attach(tid, &log));
    QVERIFY(log.attached);
    // Raw: no line length limit, no echo of the 200 kB, and no byte that would raise a signal,
    // so a corrupted byte shows as a count rather than as a killed pipeline.
    // (The bytes go once the terminal is out of canonical mode, whose lines hold 4 KiB: a
    // loaded machine may take a while to run stty.)
    link->sendInput(
        "stty raw -echo; echo raw-$((1+2)); head -c 200000 >/tmp/bulk; "
        "echo count-$(wc -c </tmp/bulk)-other-$(tr -d x </tmp/bulk | wc -c)-end-$((2+3))\n");
    QVERIFY(waitOutput(log, "raw-3"));
    QVERIFY(link->sendInput(QByteArray(200000, 'x')));
    QVERIFY(waitOutput(log, "-end-5"));
    QVERIFY2(log.out.contains("count-200000-other-0-end-5"), log.out.right(200).constData());
    QCOMPARE(link->bufferedAmount(), qint64(0));

    const qsizetype before = log.out.size();
    link->sendInput("head -c 3000000 /dev/zero | tr '\\0' y; echo; echo done-$((9-1))\n");
    QVERIFY(waitOutput(log, "done-8", 60000));
    QVERIFY(log.out.size() - before >= 3000000);
    QCOMPARE(log.out.count('y'), qsizetype(3000000) + log.out.left(before).count('y'));
    QVERIFY(!log.disconnected);
    ApiWaiter<Unit> closed;
    api().closeTerminal(sb(), tid, this, closed.done());
    LIZ_AWAIT_OK(closed);
}

// The server pings every 3 s here (--websocket-idle 6) and closes a connection silent for 6 s:
// the pongs keep it open.
void TestTerminalClient::staysOpenPastTheServersPings()
{
    QVERIFY(m_link != nullptr && m_link->isAttached());
    QTest::qWait(9000);
    QVERIFY(m_link->isAttached());
    QVERIFY(!m_log.disconnected);
    m_link->sendInput("echo still-$((8+8))\n");
    QVERIFY(waitOutput(m_log, "still-16"));
}

void TestTerminalClient::exitReportsTheCode()
{
    const QString tid = createShell();
    QVERIFY(!tid.isEmpty());
    LinkLog log;
    std::unique_ptr<TerminalLink> link(attach(tid, &log));
    QVERIFY(log.attached);
    link->sendInput("exit 3\n");
    QTRY_VERIFY_WITH_TIMEOUT(log.exitCode.has_value(), kWaitMs);
    QCOMPARE(*log.exitCode, 3);
    QVERIFY(!link->isAttached());
    QTest::qWait(300); // the server's close comes after the exit: no disconnection
    QVERIFY(!log.disconnected);

    ApiWaiter<TerminalInfo> info;
    api().getTerminal(sb(), tid, this, info.done());
    LIZ_AWAIT_OK(info);
    QCOMPARE(info.value().status, QStringLiteral("exited"));
    QCOMPARE(info.value().exitCode, std::optional<int>(3));
    QVERIFY(info.value().endedAt.isValid());
}

void TestTerminalClient::closeEndsTheSession()
{
    QVERIFY(m_link != nullptr && m_link->isAttached());
    ApiWaiter<Unit> closed;
    api().closeTerminal(sb(), m_tid, this, closed.done());
    LIZ_AWAIT_OK(closed);
    // The shell got its SIGHUP: the attached link hears the end.
    QTRY_VERIFY_WITH_TIMEOUT(m_log.exitCode.has_value() || m_log.disconnected.has_value(), kWaitMs);
    QVERIFY2(m_log.exitCode.has_value(),
             m_log.disconnected ? qPrintable(m_log.disconnected->toDisplayString()) : "");
    ApiWaiter<QList<TerminalInfo>> list;
    api().listTerminals(sb(), this, list.done());
    LIZ_AWAIT_OK(list);
    for (const TerminalInfo& t : list.value())
        if (t.terminalId == m_tid)
            QVERIFY(!t.isRunning());
}

QTEST_GUILESS_MAIN(TestTerminalClient)
#include "tst_terminalclient.moc"
