// ProcessTreeModel and SandboxFilterModel without a server: the tree built from parents, CPU as
// a rate between two listings (a reused pid is a new process), the answer's shape checked;
// the sandbox filter's words, metadata pairs, status and template.
#include "client/jsonmapping.h"
#include "models/processtreemodel.h"
#include "models/sandboxfilter.h"
#include "models/sandboxtablemodel.h"

#include <QTest>

using namespace lizard;
using Model = models::ProcessTreeModel;

namespace {

client::ProcessTreeEntry proc(int pid, int ppid, const QString& command, qint64 cpuMs,
                              qint64 startedAtMs = 1000)
{
    client::ProcessTreeEntry e;
    e.pid = pid;
    e.ppid = ppid;
    e.command = command;
    e.user = QStringLiteral("root");
    e.cpuMs = cpuMs;
    e.rssBytes = 1 << 20;
    e.startedAt = QDateTime::fromMSecsSinceEpoch(startedAtMs, Qt::UTC);
    e.system = pid == 1;
    return e;
}

client::SandboxInfo sandbox(const QString& id, const QString& status, const QString& templ,
                            const QMap<QString, QString>& metadata)
{
    client::SandboxInfo s;
    s.sandboxId = id;
    s.status = status;
    s.templateName = templ;
    s.metadata = metadata;
    return s;
}

} // namespace

class TestProcessTreeModel : public QObject
{
    Q_OBJECT
private slots:
    void treeFromParents()
    {
        Model m;
        m.setTree({{proc(1, 0, "init", 0), proc(7, 1, "sh", 0), proc(9, 7, "sleep 5", 0),
                    proc(8, 1, "python3", 0)},
                   10000,
                   false});
        QCOMPARE(m.rowCount(), 1); // PID 1 is the only root
        const QModelIndex init = m.index(0, 0);
        QCOMPARE(init.data().toString(), QStringLiteral("init"));
        QCOMPARE(m.rowCount(init), 2);
        const QModelIndex sleep = m.indexOfPid(9);
        QCOMPARE(sleep.data().toString(), QStringLiteral("sleep 5"));
        QCOMPARE(sleep.parent().data(Model::PidRole).toInt(), 7);
        QCOMPARE(sleep.parent().parent(), init);
        QVERIFY(m.indexOfPid(1).data(Model::SystemRole).toBool());
        QCOMPARE(m.processCount(), 4);
        QCOMPARE(m.totalRssBytes(), qint64(4) << 20);
        QCOMPARE(m.totalCores(), -1.0); // one listing gives no rate
        QVERIFY(m.indexOfPid(9, Model::CpuColumn).data().toString().isEmpty());
    }

    void cpuIsARateBetweenListings()
    {
        Model m;
        m.setTree({{proc(1, 0, "init", 100), proc(5, 1, "spin", 1000), proc(6, 1, "old", 50)},
                   10000,
                   false});
        // 2 s later: spin used 2 s of CPU (one core), init 20 ms; pid 6 is another process now.
        m.setTree({{proc(1, 0, "init", 120), proc(5, 1, "spin", 3000), proc(6, 1, "new", 10, 5000)},
                   12000,
                   false});
        QCOMPARE(m.indexOfPid(5, Model::CpuColumn).data().toString(), QStringLiteral("100.0%"));
        QCOMPARE(m.indexOfPid(1, Model::CpuColumn).data().toString(), QStringLiteral("1.0%"));
        QVERIFY(m.indexOfPid(6, Model::CpuColumn).data().toString().isEmpty());
        QVERIFY(qAbs(m.totalCores() - 1.01) < 1e-9);
        // Sorting by CPU reads numbers, not text.
        QVERIFY(m.indexOfPid(5, Model::CpuColumn).data(Model::SortRole).toDouble() >
                m.indexOfPid(1, Model::CpuColumn).data(Model::SortRole).toDouble());
    }

    void aMalformedAnswerIsAnError()
    {
        const auto ok = client::parseProcessTree(
            R"({"processes":[{"pid":1,"ppid":0,"command":"init","cpuMs":5}],"sampledAt":7})");
        QVERIFY(ok.ok());
        QCOMPARE(ok.value().processes.size(), 1);
        QCOMPARE(ok.value().sampledAtMs, qint64(7));
        QVERIFY(!client::parseProcessTree(R"({"sampledAt":7})").ok());
        QVERIFY(!client::parseProcessTree(R"({"processes":[{"ppid":1}]})").ok());
        QVERIFY(!client::parseProcessTree("not json").ok());
    }

    void sandboxFilter()
    {
        models::SandboxTableModel table(nullptr);
        table.applySandboxes({sandbox("sb_red1", "running", "base", {{"team", "red"}}),
                              sandbox("sb_red2", "paused", "interpreter", {{"team", "red"}}),
                              sandbox("sb_blue", "running", "base", {{"team", "blue"}}),
                              sandbox("sb_none", "", "desktop", {})});
        models::SandboxFilterModel f;
        f.setTableModel(&table);
        QCOMPARE(f.rowCount(), 4);
        QVERIFY(!f.filtering());
        f.setSearchText(QStringLiteral("team=red"));
        QCOMPARE(f.rowCount(), 2);
        f.setSearchText(QStringLiteral("TEAM=RED paused"));
        QCOMPARE(f.rowCount(), 1);
        QCOMPARE(f.sandboxIdAt(0), QStringLiteral("sb_red2"));
        f.setSearchText(QStringLiteral("team="));
        QCOMPARE(f.rowCount(), 3);
        f.setSearchText(QStringLiteral("blue"));
        QCOMPARE(f.rowCount(), 1);
        f.setSearchText(QString());
        f.setStatus(QStringLiteral("running")); // the cloud leaves the status out: running
        QCOMPARE(f.rowCount(), 3);
        f.setTemplateName(QStringLiteral("base"));
        QCOMPARE(f.rowCount(), 2);
        QCOMPARE(f.rowOf(QStringLiteral("sb_red2")), -1);
        QVERIFY(f.rowOf(QStringLiteral("sb_blue")) >= 0);
        QCOMPARE(f.templateNames(), (QStringList{"base", "desktop", "interpreter"}));
        QCOMPARE(f.statuses(), (QStringList{"paused", "running"}));
    }
};

QTEST_GUILESS_MAIN(TestProcessTreeModel)
#include "tst_processtreemodel.moc"
