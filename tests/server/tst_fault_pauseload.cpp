// Fault: pause under heavy CPU load. In the sandbox four busy loops, a loop that forks
// short-lived processes and a counter; on the host a busy loop on every core. Ten pauses and
// resumes: each pause either answers 204 and the sandbox is frozen (for 500 ms its counter
// file stays the same and no process of it gets CPU time), or answers an error with a message
// and leaves the sandbox running (exec works, the counter and every busy loop advance, no
// process stays stopped). Never half-frozen. The fork loop once made pauses by SIGSTOP (no
// cgroup freezer) fail: dash starts commands with vfork, and a vfork parent whose child is
// stopped never reaches the stopped state.
#include "fault_support.h"
#include "lifecycle_support.h"
#include "support/hostload.h"
#include "support/proctree.h"

#include <QElapsedTimer>
#include <algorithm>

using namespace lizard::test;

namespace {

struct ProcTimes
{
    char state = '?';
    qint64 ticks = -1; // utime + stime; -1 if the process is gone
};

ProcTimes procTimes(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray line = f.readAll();
    const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
    if (fields.size() < 13) // fields[0] is field 3 (state), fields[11..12] utime and stime
        return {};
    return {fields[0].at(0), fields[11].toLongLong() + fields[12].toLongLong()};
}

QByteArray cmdline(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
    return f.open(QIODevice::ReadOnly) ? f.readAll().replace('\0', ' ') : QByteArray();
}

} // namespace

class TestFaultPauseLoad : public QObject
{
    Q_OBJECT

    static constexpr int kRounds = 10;
    static constexpr int kFrozenWatchMs = 500;

    LocalServer m_server;
    SandboxApi m_api{m_server};
    QString m_id;
    qint64 m_init = 0; // host pid of the sandbox's PID 1
    HostLoad m_hostLoad;

    // Read from the host through the sandbox's root: works while the sandbox is frozen.
    QByteArray counter() const
    {
        QFile f(QStringLiteral("/proc/%1/root/tmp/counter").arg(m_init));
        if (!f.open(QIODevice::ReadOnly))
            return "<cannot read " + f.fileName().toUtf8() + ": " + f.errorString().toUtf8() + ">";
        return f.readAll().trimmed();
    }

    QMap<qint64, ProcTimes> tree() const
    {
        QMap<qint64, ProcTimes> out{{m_init, procTimes(m_init)}};
        for (const ProcEntry& p : descendants(m_init))
            out.insert(p.pid, procTimes(p.pid));
        return out;
    }

    QList<qint64> hogs() const
    {
        QList<qint64> out;
        for (const ProcEntry& p : descendants(m_init))
            if (cmdline(p.pid).contains(": hogloop;"))
                out << p.pid;
        return out;
    }

    // Every process that got CPU time or changed state between two looks (empty: frozen).
    static QStringList moved(const QMap<qint64, ProcTimes>& a, const QMap<qint64, ProcTimes>& b)
    {
        QStringList out;
        for (auto it = b.begin(); it != b.end(); ++it) {
            const ProcTimes before = a.value(it.key());
            if (before.ticks != it->ticks || before.state != it->state)
                out << QStringLiteral("pid %1 (%2): %3 ticks %4 -> %5 ticks %6")
                           .arg(it.key())
                           .arg(QString::fromUtf8(cmdline(it.key()).left(60)))
                           .arg(before.state)
                           .arg(before.ticks)
                           .arg(it->state)
                           .arg(it->ticks);
        }
        for (auto it = a.begin(); it != a.end(); ++it)
            if (!b.contains(it.key()))
                out << QStringLiteral("pid %1 went away").arg(it.key());
        return out;
    }

    // The sandbox runs: exec answers, the counter and every busy loop advance, nothing is stopped.
    bool running(QString* why)
    {
        const QString echo = m_api.run(m_id, "echo alive");
        if (echo != "alive\n")
            return *why = "exec: " + echo, false;
        const QByteArray count = counter();
        QMap<qint64, qint64> hogTicks;
        for (qint64 pid : hogs())
            hogTicks.insert(pid, procTimes(pid).ticks);
        if (hogTicks.size() != 4)
            return *why = QStringLiteral("%1 of 4 busy loops left").arg(hogTicks.size()), false;
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 15000) {
            QTest::qWait(100);
            bool allAdvanced = counter() != count;
            for (auto it = hogTicks.begin(); it != hogTicks.end(); ++it)
                allAdvanced = allAdvanced && procTimes(it.key()).ticks > it.value();
            QStringList stopped;
            for (auto [pid, t] : tree().asKeyValueRange())
                if (t.state == 'T')
                    stopped << QString::number(pid);
            if (allAdvanced && stopped.isEmpty())
                return true;
            *why =
                QStringLiteral("counter %1 -> %2; stopped: %3")
                    .arg(QString::fromUtf8(count), QString::fromUtf8(counter()), stopped.join(' '));
        }
        return false;
    }

private slots:
    void initTestCase() { QVERIFY2(m_server.start(), qPrintable(m_server.errorString())); }

    void cleanup()
    {
        m_hostLoad.stop();
        if (!m_id.isEmpty())
            m_api.kill(m_id);
        m_id.clear();
    }

    void pauseUnderLoadFreezesOrLeavesRunning()
    {
        QString why;
        m_id = createSandbox(m_server, {{"timeoutMs", 600000}}, &why);
        LIZ_REQUIRE_SANDBOX(m_id, why);
        m_init = initPidOf(m_server, m_id).first;
        QVERIFY2(m_init > 1, qPrintable(m_server.dataDir()));

        const auto started = m_api.exec(
            m_id, "for i in 1 2 3 4; do nohup sh -c ': hogloop; while :; do :; done' >/dev/null "
                  "2>&1 & done; "
                  "nohup sh -c ': forkloop; while :; do /bin/true; (:); done' >/dev/null 2>&1 & "
                  "nohup bash -c 'n=0; while :; do n=$((n+1)); echo $n > /tmp/c.new; "
                  "mv /tmp/c.new /tmp/counter; sleep 0.02; done' >/dev/null 2>&1 &");
        QVERIFY2(started.status == 200, qPrintable(describe(started)));
        QTRY_VERIFY2_WITH_TIMEOUT(counter().toInt() > 3, counter().constData(), 15000);
        QTRY_COMPARE_WITH_TIMEOUT(hogs().size(), 4, 5000);
        m_hostLoad.start();
        qInfo("load: 4 busy loops and a fork loop in the sandbox, %zu busy threads on the host",
              m_hostLoad.threads());

        QList<qint64> pauseMs;
        int succeeded = 0;
        for (int round = 1; round <= kRounds; ++round) {
            QElapsedTimer clock;
            clock.start();
            const auto r = m_server.request("POST", "/api/sandboxes/" + m_id + "/pause");
            const qint64 took = clock.elapsed();
            if (r.status == 204) {
                ++succeeded;
                pauseMs << took;
                QCOMPARE(m_api.status(m_id), QStringLiteral("paused"));
                const QByteArray count = counter();
                const auto before = tree();
                QTest::qWait(kFrozenWatchMs);
                const QStringList stirred = moved(before, tree());
                QVERIFY2(
                    counter() == count,
                    qPrintable(QStringLiteral("round %1: counter %2 -> %3 while paused")
                                   .arg(round)
                                   .arg(QString::fromUtf8(count), QString::fromUtf8(counter()))));
                QVERIFY2(stirred.isEmpty(), qPrintable(QStringLiteral("round %1, half-frozen:\n%2")
                                                           .arg(round)
                                                           .arg(stirred.join('\n'))));
                clock.restart();
                const auto resumed = m_server.request("POST", "/api/sandboxes/" + m_id + "/resume");
                QVERIFY2(resumed.status == 204, qPrintable(describe(resumed)));
                qInfo("round %d: paused in %lld ms, frozen for %d ms, resumed in %lld ms", round,
                      took, kFrozenWatchMs, clock.elapsed());
            } else {
                const QJsonObject error = jsonObject(r);
                QVERIFY2(r.status >= 400 && !error.value("code").toString().isEmpty() &&
                             error.value("message").toString().size() > 10,
                         qPrintable(describe(r)));
                qInfo("round %d: pause failed after %lld ms: %s", round, took,
                      qPrintable(describe(r)));
                QCOMPARE(m_api.status(m_id), QStringLiteral("running"));
            }
            QVERIFY2(
                running(&why),
                qPrintable(QStringLiteral("round %1: not running again: %2").arg(round).arg(why)));
        }
        std::sort(pauseMs.begin(), pauseMs.end());
        qInfo("%d of %d pauses succeeded under load; pause took min %lld, median %lld, max %lld ms",
              succeeded, kRounds, pauseMs.value(0), pauseMs.value(pauseMs.size() / 2),
              pauseMs.value(pauseMs.size() - 1));
        // Within the bound of server/api/DECISIONS.md ("Pause") every pause succeeds under this
        // load. An error above still had to leave the sandbox running; here it counts as a pause
        // that gave up where it should have stopped the sandbox.
        QCOMPARE(succeeded, kRounds);
    }

    void cleanupTestCase() { m_hostLoad.stop(); }
};

QTEST_GUILESS_MAIN(TestFaultPauseLoad)
#include "tst_fault_pauseload.moc"
