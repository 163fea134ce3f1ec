// The terminal models: TerminalSessions (a sandbox's terminals as a list) and TerminalSession
// (one attached for a widget) against a real lizard-local — create, rename and close through
// the list; attach, type, and the reattach after a broken connection with the replay before it
// (replayStarting first); no reconnect after an exit or a detach; a terminal that is gone fails
// without retrying. And a server without terminals (a fake answering 404) makes supported()
// false with its reason.

#include "../client/minihttpserver.h"
#include "client/lizardapi.h"
#include "models/terminals/terminalsession.h"
#include "models/terminals/terminalsessions.h"
#include "support/apiwait.h"
#include "support/sandboxfixture.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>
#include <memory>

using namespace lizard::client;
using lizard::models::TerminalSession;
using lizard::models::TerminalSessions;
using State = TerminalSession::State;

constexpr int kWaitMs = 20000;

class TestTerminalSessions : public QObject
{
    Q_OBJECT
private slots:
    void backoff();
    void unsupportedServer();
    void missingSandboxIsNotUnsupported();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }
    void listCreateRename();
    void attachAndType();
    void typingBeforeTheAttachIsSent();
    void reattachAfterADroppedConnection();
    void detachDoesNotReconnect();
    void exitDoesNotReconnect();
    void goneTerminalFails();
    void closeThroughTheList();

private:
    // The server and its sandbox, started by the first live test (the offline ones run on a
    // host without sandboxes too).
    bool ensureLive();
    QString createShell();

    lizard::test::SandboxFixture m_fx;
    bool m_started = false;
    QString m_failure;
    std::unique_ptr<TerminalSessions> m_list;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    QString m_tid;
};

void TestTerminalSessions::backoff()
{
    const QList<int> expected{250, 500, 1000, 2000, 4000, 5000, 5000, 5000};
    for (int attempt = 1; attempt <= expected.size(); ++attempt)
        QCOMPARE(TerminalSession::backoffMs(attempt), expected.at(attempt - 1));
    QCOMPARE(TerminalSession::backoffMs(100), 5000);
}

namespace {

lizard::test::MiniResponse jsonAnswer(int status, const QByteArray& body)
{
    lizard::test::MiniResponse r;
    r.status = status;
    r.headers = {"Content-Type: application/json"};
    r.body = body;
    return r;
}

} // namespace

// The cloud today: the sandbox exists, its /terminals does not.
void TestTerminalSessions::unsupportedServer()
{
    lizard::test::MiniHttpServer fake;
    QVERIFY(fake.listen());
    fake.route("/api/sandboxes/sb_cloud",
               jsonAnswer(200, R"({"sandboxId":"sb_cloud","status":"running"})"));
    fake.route("/api/sandboxes/sb_cloud/terminals",
               jsonAnswer(404, R"({"code":"NOT_FOUND","message":"no such endpoint"})"));
    LizardApi api(Endpoint{QString::fromUtf8(fake.url()), QStringLiteral("key")});
    TerminalSessions list(&api, QStringLiteral("sb_cloud"));
    QAbstractItemModelTester tester(&list);
    QSignalSpy supported(&list, &TerminalSessions::supportedChanged);
    QSignalSpy failed(&list, &TerminalSessions::failed);
    QVERIFY(list.supported());
    QVERIFY(list.unsupportedReason().isEmpty());
    list.refresh();
    QVERIFY(supported.wait(kWaitMs));
    QCOMPARE(supported.first().first().toBool(), false);
    QVERIFY(!list.supported());
    QCOMPARE(list.unsupportedReason(),
             QStringLiteral("This server has no terminals (it answers 404 for /terminals); the "
                            "Console tab still runs commands"));
    QCOMPARE(list.rowCount(), 0);
    QCOMPARE(failed.count(), 0);

    // A create there says the same, and no error pops up either.
    list.create(QString());
    QTest::qWait(300);
    QVERIFY(!list.supported());
    QCOMPARE(failed.count(), 0);
}

// A 404 because the sandbox is gone is an error, not a server without terminals.
void TestTerminalSessions::missingSandboxIsNotUnsupported()
{
    lizard::test::MiniHttpServer fake;
    QVERIFY(fake.listen());
    LizardApi api(Endpoint{QString::fromUtf8(fake.url()), QStringLiteral("key")});
    TerminalSessions list(&api, QStringLiteral("sb_gone"));
    QSignalSpy failed(&list, &TerminalSessions::failed);
    list.refresh();
    QVERIFY(failed.wait(kWaitMs));
    QVERIFY(list.supported());
    QCOMPARE(failed.first().first().value<ApiError>().httpStatus, 404);
}

bool TestTerminalSessions::ensureLive()
{
    if (!m_started) {
        m_started = true;
        m_failure = m_fx.start();
        if (m_failure.isEmpty()) {
            m_list = std::make_unique<TerminalSessions>(&m_fx.api(), m_fx.sandboxId());
            m_tester = std::make_unique<QAbstractItemModelTester>(m_list.get());
        }
    }
    return m_failure.isEmpty();
}

#define LIZ_REQUIRE_LIVE()                                                                         \
    do {                                                                                           \
        if (!ensureLive())                                                                         \
            LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), m_failure);                                  \
    } while (false)

void TestTerminalSessions::cleanupTestCase()
{
    m_tester.reset();
    m_list.reset();
    if (m_started)
        m_fx.stop();
}

QString TestTerminalSessions::createShell()
{
    CreateTerminalRequest req;
    req.shellCmd = QStringLiteral("/bin/sh");
    const auto made = lizard::test::waitFor<TerminalInfo>([&](QObject* ctx, auto done) {
        m_fx.api().createTerminal(m_fx.sandboxId(), req, ctx, done);
    });
    return made && made->ok() ? made->value().terminalId : QString();
}

void TestTerminalSessions::listCreateRename()
{
    LIZ_REQUIRE_LIVE();
    QSignalSpy refreshed(m_list.get(), &TerminalSessions::refreshed);
    m_list->refresh();
    QVERIFY(refreshed.wait(kWaitMs));
    QCOMPARE(m_list->rowCount(), 0);
    QVERIFY(m_list->supported());

    QSignalSpy created(m_list.get(), &TerminalSessions::created);
    m_list->create(QStringLiteral("/bin/sh"), QStringLiteral("/tmp"), 100, 30);
    QVERIFY(created.wait(kWaitMs));
    const auto t = created.first().first().value<TerminalInfo>();
    m_tid = t.terminalId;
    QVERIFY(m_tid.startsWith(QLatin1String("t-")));
    QCOMPARE(t.cols, 100);
    QCOMPARE(t.rows, 30);
    QCOMPARE(t.cwd, QStringLiteral("/tmp"));
    QCOMPARE(m_list->rowCount(), 1);
    const QModelIndex row = m_list->index(0);
    QCOMPARE(row.data(TerminalSessions::TerminalIdRole).toString(), m_tid);
    QCOMPARE(row.data(TerminalSessions::RunningRole).toBool(), true);
    QVERIFY(!row.data(TerminalSessions::ExitCodeRole).isValid());

    m_list->rename(m_tid, QStringLiteral("work"));
    QTRY_COMPARE_WITH_TIMEOUT(m_list->index(0).data(TerminalSessions::NameRole).toString(),
                              QStringLiteral("work"), kWaitMs);
    QCOMPARE(m_list->index(0).data(Qt::DisplayRole).toString(), QStringLiteral("work"));
}

void TestTerminalSessions::attachAndType()
{
    LIZ_REQUIRE_LIVE();
    QVERIFY(!m_tid.isEmpty());
    TerminalSession session(&m_fx.api(), m_fx.sandboxId(), m_tid);
    QSignalSpy replay(&session, &TerminalSession::replayStarting);
    QByteArray out;
    connect(&session, &TerminalSession::output, this, [&out](const QByteArray& b) { out += b; });
    session.resize(90, 25); // before the attach: sent with it
    session.attach();
    QCOMPARE(session.state(), State::Connecting);
    QCOMPARE(session.statusText(), QStringLiteral("Connecting…"));
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Attached, kWaitMs);
    QCOMPARE(replay.count(), 1);
    QCOMPARE(session.statusText(), QStringLiteral("Connected"));
    QTRY_COMPARE_WITH_TIMEOUT(session.cols(), 90, kWaitMs);
    QCOMPARE(session.rows(), 25);
    session.sendInput("echo first-$((1+2))\n");
    QTRY_VERIFY_WITH_TIMEOUT(out.contains("first-3"), kWaitMs);
    session.detach();
    QCOMPARE(session.state(), State::Detached);
}

// Keys typed before the link is up are sent once it is, in order; past 64 KiB they are refused
// with a message, and what was kept still goes.
void TestTerminalSessions::typingBeforeTheAttachIsSent()
{
    LIZ_REQUIRE_LIVE();
    QVERIFY(!m_tid.isEmpty());
    TerminalSession session(&m_fx.api(), m_fx.sandboxId(), m_tid);
    QByteArray out;
    connect(&session, &TerminalSession::output, this, [&out](const QByteArray& b) { out += b; });
    QSignalSpy errors(&session, &TerminalSession::errorMessage);
    session.attach();
    QCOMPARE(session.state(), State::Connecting);
    session.sendInput("echo kept-");
    session.sendInput(QByteArray(70 * 1024, '#'));
    QCOMPARE(errors.count(), 1);
    QCOMPARE(errors.at(0).at(0).toString(), QStringLiteral("INPUT_DROPPED"));
    session.sendInput("$((5+5))\n");
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Attached, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(out.contains("kept-10"), kWaitMs);
    QVERIFY(!out.contains("##########"));
    session.detach();
    // Once detached, typing goes nowhere and is not kept for a later attach.
    session.sendInput("echo lost-$((6+6))\n");
    out.clear();
    session.attach();
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Attached, kWaitMs);
    session.sendInput("echo marker-$((7+7))\n");
    QTRY_VERIFY_WITH_TIMEOUT(out.contains("marker-14"), kWaitMs);
    QVERIFY(!out.contains("lost-12"));
    session.detach();
}

void TestTerminalSessions::reattachAfterADroppedConnection()
{
    LIZ_REQUIRE_LIVE();
    QVERIFY(!m_tid.isEmpty());
    TerminalSession session(&m_fx.api(), m_fx.sandboxId(), m_tid);
    QByteArray shown; // what a widget shows: cleared on replayStarting
    QList<State> states;
    connect(&session, &TerminalSession::replayStarting, this, [&shown] { shown.clear(); });
    connect(&session, &TerminalSession::output, this,
            [&shown](const QByteArray& b) { shown += b; });
    // The replay comes apart from live output (the widget answers no query in it).
    QByteArray replayed;
    connect(&session, &TerminalSession::replayOutput, this,
            [&shown, &replayed](const QByteArray& b) {
                shown += b;
                replayed += b;
            });
    connect(&session, &TerminalSession::stateChanged, this,
            [&states](State s) { states.append(s); });
    QSignalSpy replay(&session, &TerminalSession::replayStarting);
    session.attach();
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Attached, kWaitMs);
    // The replay has the earlier test's output.
    QTRY_VERIFY_WITH_TIMEOUT(shown.contains("first-3"), kWaitMs);
    QVERIFY(replayed.contains("first-3"));
    session.sendInput("echo before-drop-$((2+2))\n");
    QTRY_VERIFY_WITH_TIMEOUT(shown.contains("before-drop-4"), kWaitMs);

    session.dropConnectionForTest();
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Reconnecting, kWaitMs);
    QVERIFY(session.statusText().startsWith(QLatin1String("Connection lost")));
    QCOMPARE(session.reconnectAttempt(), 1);
    // Typed while reconnecting: sent once attached again, not lost.
    session.sendInput("echo typed-while-away-$((4+4))\n");
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Attached, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(shown.contains("typed-while-away-8"), kWaitMs);
    QCOMPARE(replay.count(), 2);
    QCOMPARE(session.reconnectAttempt(), 0);
    // Cleared, then the server's replay: the earlier output once, not twice.
    QTRY_VERIFY_WITH_TIMEOUT(shown.contains("before-drop-4"), kWaitMs);
    QCOMPARE(shown.count("before-drop-4"), 1);
    session.sendInput("echo after-drop-$((3+3))\n");
    QTRY_VERIFY_WITH_TIMEOUT(shown.contains("after-drop-6"), kWaitMs);
    QCOMPARE(states, (QList<State>{State::Connecting, State::Attached, State::Reconnecting,
                                   State::Attached}));
    session.detach();
}

void TestTerminalSessions::detachDoesNotReconnect()
{
    LIZ_REQUIRE_LIVE();
    TerminalSession session(&m_fx.api(), m_fx.sandboxId(), m_tid);
    session.attach();
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Attached, kWaitMs);
    session.detach();
    QCOMPARE(session.state(), State::Detached);
    QTest::qWait(800); // longer than the first backoff
    QCOMPARE(session.state(), State::Detached);
    // And it attaches again on request.
    session.attach();
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Attached, kWaitMs);
}

void TestTerminalSessions::exitDoesNotReconnect()
{
    LIZ_REQUIRE_LIVE();
    const QString tid = createShell();
    QVERIFY(!tid.isEmpty());
    TerminalSession session(&m_fx.api(), m_fx.sandboxId(), tid);
    QSignalSpy exited(&session, &TerminalSession::exited);
    session.attach();
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Attached, kWaitMs);
    session.sendInput("exit 5\n");
    QVERIFY(exited.wait(kWaitMs));
    QCOMPARE(exited.first().first().toInt(), 5);
    QCOMPARE(session.state(), State::Exited);
    QCOMPARE(session.statusText(), QStringLiteral("Exited with code 5"));
    QTest::qWait(800);
    QCOMPARE(session.state(), State::Exited);
}

void TestTerminalSessions::goneTerminalFails()
{
    LIZ_REQUIRE_LIVE();
    TerminalSession session(&m_fx.api(), m_fx.sandboxId(), QStringLiteral("t-nosuch"));
    QList<State> states;
    connect(&session, &TerminalSession::stateChanged, this,
            [&states](State s) { states.append(s); });
    session.attach();
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Failed, kWaitMs);
    QCOMPARE(session.lastError().httpStatus, 404);
    QVERIFY(session.statusText().startsWith(QLatin1String("Could not attach: ")));
    QTest::qWait(800);
    QCOMPARE(states, (QList<State>{State::Connecting, State::Failed}));
}

void TestTerminalSessions::closeThroughTheList()
{
    LIZ_REQUIRE_LIVE();
    QVERIFY(!m_tid.isEmpty());
    TerminalSession session(&m_fx.api(), m_fx.sandboxId(), m_tid);
    session.attach();
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Attached, kWaitMs);
    m_list->close(m_tid);
    // The shell's SIGHUP ends it: the attached session sees an exit, not a lost connection.
    QTRY_COMPARE_WITH_TIMEOUT(session.state(), State::Exited, kWaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(
        m_list->rowOf(m_tid) < 0 ||
            !m_list->index(m_list->rowOf(m_tid)).data(TerminalSessions::RunningRole).toBool(),
        kWaitMs);
}

QTEST_GUILESS_MAIN(TestTerminalSessions)
#include "tst_terminalsessions.moc"
