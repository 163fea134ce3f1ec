// The Logs tab against a real lizard-local: a small sandbox's OOM kill shows as an error row
// (bold, red) among its lifecycle lines, live and at the bottom of the view; the filter box
// narrows the rows; Clear view empties the table while new lines keep coming; scrolled up,
// the view stays where the user put it; after lizard-local restarts it follows again without
// repeating lines. Saves the picture of the guide (docs/guide/logs.png).
#include "models/sandboxlogmodel.h"
#include "models/sandboxtablemodel.h"
#include "support/sandboxfixture.h"
#include "support/screenshot.h"
#include "ui/logsview.h"
#include "ui/mainwindow.h"
#include "ui/sandboxpanel.h"

#include <QAction>
#include <QBrush>
#include <QFont>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace lizard;
using lizard::test::ApiWaiter;
using LogModel = models::SandboxLogModel;

class TestLogsView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }

    void oomKillShowsAsAnError();
    void filterAndClearView();
    void scrolledUpStaysPut();
    void followsAgainAfterAServerRestart();

private:
    QString exec(const QString& cmd);
    // Rows the user sees (after the filter) whose message contains `text`.
    QList<int> shownRows(const QString& text) const;
    QString shownText() const;

    lizard::test::SandboxFixture m_fx;
    QString m_small; // a nano sandbox: its memory cgroup is small enough to fill
    bool m_cgroupLimits = false;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::LogsView* m_logs = nullptr;
    QTableView* m_view = nullptr;
};

void TestLogsView::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
    client::CreateSandboxRequest req;
    req.projectId = m_fx.projectId();
    req.size = QStringLiteral("nano");
    req.timeoutMs = 600000;
    QString why;
    m_small = lizard::test::startSandbox(m_fx.api(), req, &why);
    QVERIFY2(!m_small.isEmpty(), qPrintable(why));
    ApiWaiter<client::SandboxInfo> info;
    m_fx.api().getSandbox(m_small, nullptr, info.done());
    QVERIFY(info.wait() && info.ok());
    m_cgroupLimits = info.value().limitsEnforcedBy == QLatin1String("cgroup");

    m_window = std::make_unique<ui::MainWindow>();
    m_window->setBackend(&m_fx.api(), "test", {});
    m_window->resize(1100, 720);
    m_window->show();
    m_logs = m_window->logsView();
    QVERIFY(m_logs);
    m_view = m_logs->findChild<QTableView*>(QStringLiteral("logsTable"));
    QVERIFY(m_view);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->sandboxModel()->rowOf(m_small) >= 0, 30000);
    m_window->sandboxPanel()->selectSandbox(m_small);
    m_window->toolTabs()->setCurrentWidget(m_logs);
    QCOMPARE(m_window->toolTabs()->tabText(m_window->toolTabs()->currentIndex()),
             QStringLiteral("Logs"));
    QTRY_COMPARE(m_logs->model()->sandboxId(), m_small);
    QTRY_VERIFY_WITH_TIMEOUT(!shownRows("created (template base, size nano").isEmpty(), 10000);
}

void TestLogsView::cleanupTestCase()
{
    m_window.reset();
    if (!m_small.isEmpty())
        lizard::test::killSandbox(m_fx.api(), m_small);
    m_fx.stop();
}

QString TestLogsView::exec(const QString& cmd)
{
    ApiWaiter<client::ExecResult> w;
    client::ExecOptions opts;
    opts.timeoutMs = 60000;
    m_fx.api().exec(m_small, cmd, opts, nullptr, w.done());
    if (!w.wait() || !w.ok())
        return QString::fromUtf8(w.why());
    return QString::number(w.value().exitCode);
}

QList<int> TestLogsView::shownRows(const QString& text) const
{
    QList<int> rows;
    const QAbstractItemModel* m = m_view->model();
    for (int r = 0; r < m->rowCount(); ++r)
        if (m->index(r, LogModel::MessageColumn).data().toString().contains(text))
            rows << r;
    return rows;
}

QString TestLogsView::shownText() const
{
    QStringList out;
    const QAbstractItemModel* m = m_view->model();
    for (int r = 0; r < m->rowCount(); ++r)
        out << m->index(r, LogModel::LevelColumn).data().toString() + " " +
                   m->index(r, LogModel::MessageColumn).data().toString();
    return out.join('\n');
}

// A process holding 400 MiB, then (once it holds them) one growing until it is killed.
constexpr const char* kHolderThenGrower =
    "rm -f /tmp/held; python3 -c \"import time; b = b'y' * (400 << 20); "
    "open('/tmp/held', 'w').close(); time.sleep(10)\" >/dev/null 2>&1 & while [ ! -e /tmp/held "
    "]; do sleep 0.05; done; exec python3 -c \"a = [b'x' * (32 << 20) for _ in range(100)]\"";

void TestLogsView::oomKillShowsAsAnError()
{
    if (!m_cgroupLimits)
        QSKIP("no memory cgroup on this host: nothing counts OOM kills");
    // A signal first: a warning, in amber.
    QCOMPARE(exec("kill -TERM $$"), QStringLiteral("143"));
    QTRY_VERIFY2_WITH_TIMEOUT(!shownRows("killed by SIGTERM").isEmpty(), qPrintable(shownText()),
                              5000);
    const QModelIndex warn = m_view->model()->index(shownRows("killed by SIGTERM").constFirst(),
                                                    LogModel::MessageColumn);
    QCOMPARE(warn.siblingAtColumn(LogModel::LevelColumn).data().toString(), QStringLiteral("WARN"));
    const QColor amber = warn.data(Qt::ForegroundRole).value<QBrush>().color();
    QVERIFY2(amber.red() > 100 && amber.blue() < 60, qPrintable(amber.name()));
    QVERIFY(!warn.data(Qt::FontRole).value<QFont>().bold());
    // Each process may use the sandbox's memory (RLIMIT_DATA): a holder takes 400 MiB, so the
    // grower fills the sandbox's memory cgroup first and the OOM killer takes it. The grower
    // starts once the holder has its memory (a fixed pause lost that race on a busy host: the
    // grower met its own RLIMIT_DATA first, a MemoryError).
    QCOMPARE(exec(QString::fromLatin1(kHolderThenGrower)), QStringLiteral("137"));
    // The holder may be killed too (first, while it is the bigger one): wait for the grower.
    // The grower is PID 1's child: its line names it ("OOM: killed 12 python3 (out of memory…").
    QTRY_VERIFY2_WITH_TIMEOUT(!shownRows(" python3 (out of memory").isEmpty(),
                              qPrintable(shownText()), 5000);
    const int row = shownRows(" python3 (out of memory").constLast();
    const QAbstractItemModel* m = m_view->model();
    const QModelIndex message = m->index(row, LogModel::MessageColumn);
    QVERIFY2(message.data().toString().contains(QRegularExpression(
                 "^OOM: killed \\d+ python3 \\(out of memory, limit \\d+ MiB\\)")),
             qPrintable(shownText()));
    QCOMPARE(m->index(row, LogModel::LevelColumn).data().toString(), QStringLiteral("ERROR"));
    QVERIFY(!m->index(row, LogModel::TimeColumn).data().toString().isEmpty());
    // It stands out: bold, red, on a tinted row; an info row is plain.
    QVERIFY(message.data(Qt::FontRole).value<QFont>().bold());
    const QColor red = message.data(Qt::ForegroundRole).value<QBrush>().color();
    QVERIFY2(red.red() > 150 && red.green() < 80, qPrintable(red.name()));
    const int info = shownRows("created (template base").constFirst();
    QVERIFY(!m->index(info, LogModel::MessageColumn).data(Qt::FontRole).value<QFont>().bold());
    // Followed: the newest row is in view.
    const QModelIndex last = m->index(m->rowCount() - 1, LogModel::MessageColumn);
    QTRY_VERIFY(m_view->viewport()->rect().intersects(m_view->visualRect(last)));
    QVERIFY(m_logs->followsTail());
    lizard::test::saveScreenshot(m_window->grab(), QStringLiteral("logs"));
}

void TestLogsView::filterAndClearView()
{
    QLineEdit* filter = m_logs->filterEdit();
    // A line of its own next to "created" (the OOM case that makes more may have been skipped).
    const qsizetype signalled = shownRows("killed by SIGTERM").size();
    QCOMPARE(exec("kill -TERM $$"), QStringLiteral("143"));
    QTRY_VERIFY_WITH_TIMEOUT(shownRows("killed by SIGTERM").size() > signalled, 5000);
    const int before = m_view->model()->rowCount();
    QVERIFY(before >= 2);
    QTest::keyClicks(filter, "created");
    QTRY_COMPARE(m_view->model()->rowCount(), 1);
    QVERIFY(shownRows("created").size() == 1);
    filter->clear();
    QTRY_COMPARE(m_view->model()->rowCount(), before);

    m_logs->clearAction()->trigger();
    QCOMPARE(m_view->model()->rowCount(), 0);
    // New lines keep coming after a Clear view.
    ApiWaiter<client::Unit> w;
    m_fx.api().setSandboxTimeout(m_small, 480000, nullptr, w.done());
    QVERIFY(w.wait() && w.ok());
    QTRY_VERIFY_WITH_TIMEOUT(!shownRows("timeout set to 480 s").isEmpty(), 2000);
    QCOMPARE(m_view->model()->rowCount(), 1);
    QVERIFY(m_logs->findChild<QLabel*>(QStringLiteral("logsStatus"))->text().contains("Following"));
}

void TestLogsView::scrolledUpStaysPut()
{
    m_logs->model()->clear();
    m_view->setFixedHeight(160); // a few rows, so that the log scrolls
    for (int i = 0; i < 15; ++i) {
        ApiWaiter<client::Unit> w;
        m_fx.api().setSandboxTimeout(m_small, 400000 + i * 1000, nullptr, w.done());
        QVERIFY(w.wait() && w.ok());
    }
    QTRY_COMPARE(m_view->model()->rowCount(), 15);
    QScrollBar* bar = m_view->verticalScrollBar();
    QTRY_VERIFY(bar->maximum() > 0 && bar->value() == bar->maximum());
    bar->setValue(0); // the user scrolls up to read
    QVERIFY(!m_logs->followsTail());
    ApiWaiter<client::Unit> w;
    m_fx.api().setSandboxTimeout(m_small, 470000, nullptr, w.done());
    QVERIFY(w.wait() && w.ok());
    QTRY_COMPARE(m_view->model()->rowCount(), 16);
    QTest::qWait(100);
    QCOMPARE(bar->value(), 0);
    bar->setValue(bar->maximum()); // back at the bottom: it follows again
    QVERIFY(m_logs->followsTail());
    m_view->setMinimumHeight(0);
    m_view->setMaximumHeight(QWIDGETSIZE_MAX);
}

void TestLogsView::followsAgainAfterAServerRestart()
{
    const int rows = m_view->model()->rowCount();
    QVERIFY(m_fx.server().restart());
    auto* status = m_logs->findChild<QLabel*>(QStringLiteral("logsStatus"));
    QTRY_VERIFY_WITH_TIMEOUT(status->text().contains("Following"), 15000);
    ApiWaiter<client::Unit> w;
    m_fx.api().setSandboxTimeout(m_small, 460000, nullptr, w.done());
    QVERIFY(w.wait() && w.ok());
    QTRY_VERIFY2_WITH_TIMEOUT(!shownRows("timeout set to 460 s").isEmpty(), qPrintable(shownText()),
                              10000);
    // The lines the new stream repeats (its tail) are not shown twice.
    QCOMPARE(m_view->model()->rowCount(), rows + 1);
}

QTEST_MAIN(TestLogsView)
#include "tst_logsview.moc"
