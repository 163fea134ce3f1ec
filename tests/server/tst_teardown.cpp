// Tear-down on a loaded host: with a busy thread on every core, sandboxes ended in each way a
// server ends them (deleted with processes running, while paused, while writing to their disk,
// at their deadline) leave nothing on the host: no mount of their disk image, no loop device,
// no cgroup. The control: while they run, the same checks find their disk (as root) and their
// cgroups (where this user may write them), so an empty answer means they were released.
#include "hostleftovers.h"
#include "lifecycle_support.h"
#include "support/hostload.h"

#include <QFileInfo>

using namespace lizard::test;

class TestTeardown : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};
    HostLoad m_load;
    QString m_dataDir;

    QString create(const QJsonObject& body = {})
    {
        QString why;
        const QString id = createSandbox(m_server, body, &why);
        if (id.isEmpty())
            qWarning().noquote() << why;
        return id;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_dataDir = QFileInfo(m_server.dataDir()).canonicalFilePath();
        m_load.start();
    }

    void cleanupTestCase() { m_load.stop(); }

    void everyEndUnderLoadLeavesNothing()
    {
        const QString running = create(); // processes left running inside
        const QString paused = create();  // frozen when deleted
        const QString writing = create(); // dirty pages of its disk when deleted
        const QString deadline = create({{"timeoutMs", 3000}}); // ended by its deadline
        const QStringList ids{running, paused, writing, deadline};
        for (const QString& id : ids)
            QVERIFY(!id.isEmpty());

        // The control: the checks see what a running sandbox holds.
        const QStringList held = hostLeftovers(m_dataDir, running);
        qInfo().noquote() << "a running sandbox holds on the host:"
                          << (held.isEmpty() ? QStringLiteral("nothing to see (no image, no "
                                                              "cgroup for this user)")
                                             : held.join(", "));
        if (!mountsUnder(m_dataDir + "/sandboxes/" + running).isEmpty())
            QVERIFY2(!loopDevicesOn(m_dataDir + "/disks/" + running + ".img").isEmpty(),
                     "a mounted disk image without its loop device");

        QCOMPARE(m_api.run(running, "sleep 600 >/dev/null 2>&1 & sleep 600 >/dev/null 2>&1 & "
                                    "echo started"),
                 QStringLiteral("started\n"));
        QCOMPARE(m_server.request("POST", "/api/sandboxes/" + paused + "/pause").status, 204);
        QCOMPARE(m_api.run(writing, "(dd if=/dev/zero of=/root/fill bs=1M count=300 "
                                    ">/dev/null 2>&1 &) ; sleep 0.3; echo writing"),
                 QStringLiteral("writing\n"));

        for (const QString& id : {running, paused, writing})
            QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + id).status, 204);
        // The deadline one ends by itself.
        QDeadlineTimer gone(20000);
        while (m_server.request("GET", "/api/sandboxes/" + deadline).status != 404 &&
               !gone.hasExpired())
            QTest::qWait(200);
        QCOMPARE(m_server.request("GET", "/api/sandboxes/" + deadline).status, 404);

        for (const QString& id : ids) {
            const QStringList left = waitForNoLeftovers(m_dataDir, id);
            QVERIFY2(left.isEmpty(), qPrintable("left behind by " + id + ": " + left.join(", ")));
            // The image file goes after its loop device: on a loaded machine a moment later.
            QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(m_dataDir + "/disks/" + id + ".img"), 10000);
        }
    }
};

QTEST_GUILESS_MAIN(TestTeardown)
#include "tst_teardown.moc"
