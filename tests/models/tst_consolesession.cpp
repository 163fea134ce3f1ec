// ConsoleSession against a real sandbox: streamed stdout/stderr, exit code, Stop, the full
// output in the log.
#include "client/lizardapi.h"
#include "models/consolesession.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/sandboxpolicy.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lizard;
using client::OutputLine;
using client::OutputStream;
using models::ConsoleSession;

class TestConsoleSession : public QObject
{
    Q_OBJECT
private:
    lizard::test::LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;
    QString m_sandboxId;

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_api = std::make_unique<client::LizardApi>(
            client::Endpoint{m_server.url(), m_server.apiKey()});
        const auto projects = lizard::test::waitFor<QList<client::Project>>(
            [this](QObject* ctx, auto done) { return m_api->listProjects(ctx, done); });
        QVERIFY(projects && projects->ok() && !projects->value().isEmpty());
        QString why;
        m_sandboxId =
            lizard::test::startSandbox(*m_api, projects->value().first().id, 300000, &why);
        LIZ_REQUIRE_SANDBOX(m_sandboxId, why);
    }

    void cleanupTestCase()
    {
        if (!m_sandboxId.isEmpty())
            lizard::test::killSandbox(*m_api, m_sandboxId);
    }

    void streamsAndExitCode()
    {
        ConsoleSession session(m_api.get(), m_sandboxId);
        QSignalSpy output(&session, &ConsoleSession::output);
        QSignalSpy finished(&session, &ConsoleSession::commandFinished);
        QSignalSpy running(&session, &ConsoleSession::runningChanged);
        QVERIFY(session.run("echo hi; echo oops >&2; python3 -c 'print(6*7)'; exit 3"));
        QVERIFY(session.isRunning());
        QVERIFY(!session.run("echo second")); // one at a time
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).toInt(), 3);
        QList<OutputLine> lines;
        for (const auto& args : output)
            lines += args.at(0).value<QList<OutputLine>>();
        QStringList out, err;
        for (const auto& l : lines)
            (l.stream == OutputStream::Stderr ? err : out) << l.text;
        QCOMPARE(out, (QStringList{"hi", "42"}));
        QCOMPARE(err, QStringList{"oops"});
        QVERIFY(!session.isRunning());
        QCOMPARE(running.count(), 2);
        QCOMPARE(session.history().entries().last(),
                 QString("echo hi; echo oops >&2; python3 -c 'print(6*7)'; exit 3"));

        QTemporaryDir dir;
        QVERIFY(session.log().saveTo(dir.filePath("out.txt")));
        QFile f(dir.filePath("out.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString saved = QString::fromUtf8(f.readAll());
        QVERIFY2(saved.contains("hi\n") && saved.contains("oops\n") && saved.contains("42\n") &&
                     saved.contains("[exit 3]"),
                 qPrintable(saved));
    }

    void stopEndsARunningCommand()
    {
        ConsoleSession session(m_api.get(), m_sandboxId);
        QSignalSpy output(&session, &ConsoleSession::output);
        QSignalSpy finished(&session, &ConsoleSession::commandFinished);
        QSignalSpy stopped(&session, &ConsoleSession::commandStopped);
        QVERIFY(session.run("echo started; sleep 60"));
        QVERIFY(output.wait(30000)); // the command runs (and its pid is known)
        QElapsedTimer timer;
        timer.start();
        session.stop(3000);
        QTRY_VERIFY_WITH_TIMEOUT(finished.count() + stopped.count() == 1, 10000);
        QVERIFY2(timer.elapsed() < 5000, "Stop took too long");
        if (finished.count() == 1)
            QVERIFY(finished.at(0).at(0).toInt() != 0); // killed by SIGTERM: 143
        QVERIFY(!session.isRunning());
        // The sandbox still works afterwards.
        QSignalSpy finished2(&session, &ConsoleSession::commandFinished);
        QVERIFY(session.run("true"));
        QVERIFY(finished2.wait(30000));
        QCOMPARE(finished2.at(0).at(0).toInt(), 0);
    }

    // Each way a command ends reads differently in the console.
    void exitTexts_data()
    {
        QTest::addColumn<int>("code");
        QTest::addColumn<bool>("timedOut");
        QTest::addColumn<bool>("oomKilled");
        QTest::addColumn<bool>("stopped");
        QTest::addColumn<QString>("text");
        QTest::newRow("success") << 0 << false << false << false << "[exit 0]";
        QTest::newRow("failure") << 3 << false << false << false << "[exit 3]";
        QTest::newRow("timeout") << 124 << true << false << false
                                 << "[timed out after 600 s: killed (exit 124)]";
        QTest::newRow("exit 124 by itself") << 124 << false << false << false << "[exit 124]";
        QTest::newRow("kill") << 137 << false << false << false << "[killed by SIGKILL (exit 137)]";
        QTest::newRow("oom") << 137 << false << true << false
                             << "[out of memory: killed by the sandbox's OOM killer (exit 137)]";
        QTest::newRow("stop") << 143 << false << false << true << "[stopped (exit 143)]";
        QTest::newRow("sigterm from elsewhere")
            << 143 << false << false << false << "[killed by SIGTERM (exit 143)]";
    }
    void exitTexts()
    {
        QFETCH(int, code);
        QFETCH(bool, timedOut);
        QFETCH(bool, oomKilled);
        QFETCH(bool, stopped);
        QFETCH(QString, text);
        QCOMPARE(ConsoleSession::exitText({code, timedOut, oomKilled, stopped}, 600), text);
    }

    void unknownSandboxFailsWithServerMessage()
    {
        ConsoleSession session(m_api.get(), "sb_doesnotexist");
        QSignalSpy failed(&session, &ConsoleSession::commandFailed);
        QVERIFY(session.run("echo hi"));
        QVERIFY(failed.wait(30000));
        const auto error = failed.at(0).at(0).value<client::ApiError>();
        QCOMPARE(error.kind, client::ApiError::Kind::NotFound);
        QVERIFY(!session.isRunning());
    }
};

QTEST_GUILESS_MAIN(TestConsoleSession)
#include "tst_consolesession.moc"
