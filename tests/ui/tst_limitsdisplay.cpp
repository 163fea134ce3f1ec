// What the sandbox table says about a sandbox's limits, against a real lizard-local (as root:
// cgroups; as an ordinary user without a writable cgroup: rlimits). The text is what the
// server reports it enforces, never more.
#include "models/sandboxrow.h"
#include "models/sandboxtablemodel.h"
#include "server/support_http.h"
#include "support/apiwait.h"
#include "support/livewindow.h"
#include "support/localserver.h"
#include "ui/mainwindow.h"
#include "ui/projectpanel.h"
#include "ui/sandboxpanel.h"

#include <QAbstractItemModel>
#include <QTableView>
#include <QTest>

using namespace lizard;

class TestLimitsDisplay : public QObject
{
    Q_OBJECT
private:
    QString m_sandboxId;
    lizard::test::LiveWindow m_live;

private slots:
    void initTestCase()
    {
        const QString failed = m_live.start();
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        client::CreateSandboxRequest req;
        req.size = "small";
        QString why;
        m_sandboxId = m_live.createSandbox(req, &why);
        LIZ_REQUIRE_SANDBOX(m_sandboxId, why);
    }

    void cleanupTestCase() { m_live.stop(); }

    void sizeCellShowsTheEnforcedLimits()
    {
        const QJsonObject info = lizard::test::jsonObject(
            m_live.server().request("GET", "/api/sandboxes/" + m_sandboxId));
        const QJsonObject limits = info.value("limits").toObject();
        const QString by = limits.value("enforcedBy").toString();
        QTableView* view = m_live.window()->sandboxPanel()->view();
        QAbstractItemModel* model = view->model();
        int row = -1;
        QTRY_VERIFY_WITH_TIMEOUT((row = m_live.window()->sandboxModel()->rowOf(m_sandboxId)) >= 0,
                                 10000);
        const QModelIndex cell = model->index(row, models::SandboxColumn::Size);
        const QString text = cell.data().toString();
        const QString tip = cell.data(Qt::ToolTipRole).toString();
        qInfo().noquote() << "server reports"
                          << QJsonDocument(limits).toJson(QJsonDocument::Compact) << "cpus"
                          << info.value("cpus").toDouble() << "; the table shows [" << text
                          << "], tooltip [" << tip << "]";
        QCOMPARE(limits.value("pids").toInt(), 1024);
        // The disk: an image as root, the watch as an ordinary user (10 GB by default).
        const QString disk = limits.value("disk").toString();
        QVERIFY2(disk == "image" || disk == "watch", qPrintable(disk));
        QCOMPARE(info.value("diskGb").toInt(), 10);
        const QString diskText = disk == "watch" ? " · Disk: 10 GB (watched)" : " · Disk: 10 GB";
        // Last the network, when it is not the default: where the host gives sandboxes no
        // network (slirp4netns unusable), the sandbox really has none and the cell says so.
        const QString networkText = info.value("internetAccess").toBool() ? "" : " · no network";
        QVERIFY2(text.endsWith(diskText + networkText), qPrintable(text));
        QVERIFY2(
            tip.contains(disk == "watch" ? "watched: the server measures" : "its own file system"),
            qPrintable(tip));
        if (by == "cgroup") {
            // cpus is what is enforced: 2 for small, or fewer on a smaller host.
            const QString cpus = QString::number(info.value("cpus").toDouble());
            QCOMPARE(text, QString("small · %1 vCPU · 4 GB · 1024 pids").arg(cpus) + diskText +
                               networkText);
            QVERIFY2(tip.startsWith("Enforced by cgroups for the whole sandbox: " + cpus + " CPUs"),
                     qPrintable(tip));
        } else {
            QCOMPARE(by, QString("rlimit"));
            QVERIFY(!info.contains("cpus") && !info.contains("memoryMb"));
            QCOMPARE(text, QString("small · 1024 pids · 4 GB per process · cpu not limited") +
                               diskText + networkText);
            QVERIFY2(tip.startsWith("cgroups are not writable on this host"), qPrintable(tip));
            // and the window's notes say so once
            QTRY_VERIFY_WITH_TIMEOUT(
                m_live.window()->capabilityNotes().contains(
                    "cgroups not writable: only process and per-process memory limits"),
                10000);
        }
    }
};

QTEST_MAIN(TestLimitsDisplay)
#include "tst_limitsdisplay.moc"
