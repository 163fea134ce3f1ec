// The Resources tab against a real lizard-local (sampling every 500 ms): the charts of the
// selected sandbox with its limits and its lifecycle events, a CPU loop that shows about a
// core within 5 s, the time range, the CPU and Memory bars of the sandbox table, and the
// warning of a sandbox at its process limit. Saves the picture of the guide
// (docs/guide/resources.png).
#include "models/metricslimits.h"
#include "models/sandboxmetrics.h"
#include "models/sandboxrow.h"
#include "models/sandboxtablemodel.h"
#include "support/sandboxfixture.h"
#include "support/themedscreenshot.h"
#include "ui/mainwindow.h"
#include "ui/resources/metricschart.h"
#include "ui/resources/resourcespanel.h"
#include "ui/sandboxpanel.h"

#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QTabWidget>
#include <QTest>

using namespace lizard;
using test::ApiWaiter;
using ui::resources::MetricsChart;

class TestResourcesPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }

    void chartsWithLimitsAndEvents();
    void aCpuLoopShowsAboutOneCore();
    void theTableShowsBars();
    void theTimeRangeChanges();
    void aSandboxAtItsProcessLimitSaysSo();

private:
    QString exec(const QString& cmd);
    double latestCpu() const { return m_panel->chart("cpu")->latestValue(); }

    test::SandboxFixture m_fx;
    QString m_id;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::resources::ResourcesPanel* m_panel = nullptr;
};

void TestResourcesPanel::initTestCase()
{
    m_fx.setServerArgs({QStringLiteral("--metrics-interval-ms"), QStringLiteral("500")});
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
    m_id = m_fx.sandboxId();
    m_window = std::make_unique<ui::MainWindow>();
    m_window->setBackend(&m_fx.api(), "test", {});
    m_window->resize(1200, 820);
    m_window->show();
    m_panel = m_window->resourcesPanel();
    QVERIFY(m_panel);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->sandboxModel()->rowOf(m_id) >= 0, 30000);
    m_window->sandboxPanel()->selectSandbox(m_id);
    m_window->toolTabs()->setCurrentWidget(m_panel);
    QCOMPARE(m_window->toolTabs()->tabText(m_window->toolTabs()->currentIndex()),
             QStringLiteral("Resources"));
    QTRY_COMPARE(m_panel->source()->sandboxId(), m_id);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->source()->metrics().latest.t > 0, 15000);
}

void TestResourcesPanel::cleanupTestCase()
{
    m_window.reset();
    m_fx.stop();
}

QString TestResourcesPanel::exec(const QString& cmd)
{
    ApiWaiter<client::ExecResult> w;
    client::ExecOptions opts;
    opts.timeoutMs = 60000;
    m_fx.api().exec(m_id, cmd, opts, nullptr, w.done());
    if (!w.wait() || !w.ok())
        return QString::fromUtf8(w.why());
    return w.value().stdoutText.trimmed();
}

void TestResourcesPanel::chartsWithLimitsAndEvents()
{
    MetricsChart* memory = m_panel->chart("memory");
    QTRY_VERIFY(memory->latestValue() > 0);
    QVERIFY(memory->latestText().endsWith("B"));
    // The limits the sandbox's info states, as lines.
    const client::MetricLimits& limits = m_panel->source()->metrics().limits;
    QVERIFY(limits.pids > 0);
    QCOMPARE(m_panel->chart("pids")->limit(), double(limits.pids));
    QVERIFY(m_panel->chart("pids")->scaleMax() >= double(limits.pids));
    if (limits.memoryKind == QLatin1String("cgroup"))
        QCOMPARE(memory->limit(), double(limits.memoryMb) * 1024 * 1024);
    if (limits.diskGb > 0)
        QCOMPARE(m_panel->chart("disk")->limit(), double(limits.diskGb) * 1024 * 1024 * 1024);
    // Its creation is marked on every chart.
    QVERIFY(m_panel->chart("cpu")->eventCount() >= 1);
    QVERIFY(m_panel->summaryText().contains("Memory"));
    QVERIFY2(m_panel->statusText().contains("Figures from"), qPrintable(m_panel->statusText()));
    QVERIFY(!m_panel->warningLabel()->isVisible());
    QCOMPARE(m_panel->chart("network")->series().size(), 2);
}

void TestResourcesPanel::aCpuLoopShowsAboutOneCore()
{
    const int pid = exec("sh -c 'while :; do :; done' >/dev/null 2>&1 & echo $!").toInt();
    QVERIFY(pid > 0);
    QElapsedTimer started;
    started.start();
    // A core busy reads near 1 within 5 s of the loop's start on a quiet host (two samples, 2 s
    // apart); on a host whose two cores run other suites and a compiler too, the loop gets its
    // share later and smaller (tst_api_metrics checks the figure itself).
    QTRY_VERIFY_WITH_TIMEOUT(latestCpu() >= 0.4, 20000);
    qInfo("the loop shows %.2f cores after %lld ms", latestCpu(), started.elapsed());
    QVERIFY2(latestCpu() < 1.3, qPrintable(QString::number(latestCpu()))); // one loop, one core
    QVERIFY(m_panel->chart("cpu")->latestText().contains("core"));
    test::saveLightAndDark(m_window.get(), QStringLiteral("resources"));
    exec(QStringLiteral("kill -9 %1").arg(pid));
    QTRY_VERIFY_WITH_TIMEOUT(latestCpu() < 0.3, 10000);
}

void TestResourcesPanel::theTableShowsBars()
{
    const models::SandboxTableModel* model = m_window->sandboxModel();
    QTRY_VERIFY_WITH_TIMEOUT(model->usage(m_id) != nullptr, 10000);
    const int row = model->rowOf(m_id);
    const QModelIndex cpu = model->index(row, models::SandboxColumn::Cpu);
    const QModelIndex memory = model->index(row, models::SandboxColumn::Memory);
    QCOMPARE(model->headerData(models::SandboxColumn::Cpu, Qt::Horizontal).toString(),
             QStringLiteral("CPU"));
    QVERIFY2(cpu.data().toString().contains("core"), qPrintable(cpu.data().toString()));
    QVERIFY(cpu.data(models::SandboxTableModel::UsageRole).toDouble() >= 0);
    QVERIFY(memory.data().toString().endsWith("B"));
    QVERIFY(memory.data(models::SandboxTableModel::UsageRole).toDouble() > 0);
    QVERIFY(memory.data(Qt::ToolTipRole).toString().contains(memory.data().toString()));
    QVERIFY(memory.data(models::SandboxTableModel::NearLimitRole).toStringList().isEmpty());
}

void TestResourcesPanel::theTimeRangeChanges()
{
    QComboBox* range = m_panel->rangeBox();
    range->setCurrentIndex(range->findData(QStringLiteral("24h")));
    QTRY_COMPARE(m_panel->source()->metrics().range, QStringLiteral("24h"));
    QVERIFY(!m_panel->chart("memory")->series().first().points.isEmpty());
    range->setCurrentIndex(range->findData(QStringLiteral("10m")));
    QTRY_COMPARE(m_panel->source()->metrics().range, QStringLiteral("10m"));
    // Ten minutes: a sample every 500 ms, so many points already.
    QTRY_VERIFY(m_panel->chart("memory")->series().first().points.size() >= 10);
}

void TestResourcesPanel::aSandboxAtItsProcessLimitSaysSo()
{
    const qint64 limit = m_panel->source()->metrics().limits.pids;
    if (limit <= 0 || m_panel->source()->metrics().source != QLatin1String("cgroup"))
        QSKIP("the process limit of this sandbox is not its own (no cgroup)");
    // Threads up to the limit, held for 8 s: then they end by themselves (at the limit, not even
    // a kill could start).
    exec("nohup python3 -c 'import threading, time\n"
         "threading.stack_size(65536)\n"
         "e = threading.Event()\n"
         "try:\n"
         "    while True: threading.Thread(target=e.wait, daemon=True).start()\n"
         "except Exception: pass\n"
         "time.sleep(8)' >/dev/null 2>&1 &");
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->warningLabel()->isVisible(), 8000);
    QVERIFY2(m_panel->warningLabel()->text().contains("Processes at the limit"),
             qPrintable(m_panel->warningLabel()->text()));
    const models::SandboxTableModel* model = m_window->sandboxModel();
    const QModelIndex memory = model->index(model->rowOf(m_id), models::SandboxColumn::Memory);
    QTRY_VERIFY_WITH_TIMEOUT(
        !memory.data(models::SandboxTableModel::NearLimitRole).toStringList().isEmpty(), 8000);
    test::saveScreenshot(m_window.get(), QStringLiteral("resources-warning"));
    // Once they end, the warning goes.
    QTRY_VERIFY_WITH_TIMEOUT(!m_panel->warningLabel()->isVisible(), 20000);
}

QTEST_MAIN(TestResourcesPanel)
#include "tst_resourcespanel.moc"
