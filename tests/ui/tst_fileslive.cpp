// The Files tab follows the sandbox by itself against a real lizard-local (fs.watch): a file
// an exec creates shows within a second without Refresh, in the shown folder and in an
// expanded subfolder, and a removed file goes; a paused sandbox is a note, not an error, and
// its folders follow again once it is resumed.
#include "models/files/sandboxfilemodel.h"
#include "models/sandboxtablemodel.h"
#include "support/sandboxfixture.h"
#include "support/screenshot.h"
#include "ui/files/filespanel.h"
#include "ui/mainwindow.h"
#include "ui/sandboxpanel.h"

#include <QAction>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTreeView>

using namespace lizard;
using lizard::test::ApiWaiter;
using ui::files::FilesPanel;

class TestFilesLive : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }

    void execCreatesAFileThatShowsWithinASecond();
    void expandedSubfolderFollowsToo();
    void aPausedSandboxIsNoError();

private:
    bool exec(const QString& cmd);
    // The row the user sees under `parent` (a view index) whose name is `name`.
    QModelIndex shownRow(const QString& name, const QModelIndex& parent = {}) const;

    lizard::test::SandboxFixture m_fx;
    std::unique_ptr<ui::MainWindow> m_window;
    FilesPanel* m_panel = nullptr;
    QTreeView* m_view = nullptr;
};

void TestFilesLive::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
    QVERIFY(exec("mkdir -p /home/user/sub && echo seed > /home/user/seed.txt && "
                 "echo inner > /home/user/sub/inner.txt"));
    m_window = std::make_unique<ui::MainWindow>();
    m_window->setBackend(&m_fx.api(), "test", {});
    m_window->resize(1100, 700);
    m_window->show();
    m_panel = m_window->filesPanel();
    QVERIFY(m_panel);
    m_view = m_panel->findChild<QTreeView*>(QStringLiteral("filesTree"));
    QVERIFY(m_view);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->sandboxModel()->rowOf(m_fx.sandboxId()) >= 0, 30000);
    m_window->sandboxPanel()->selectSandbox(m_fx.sandboxId());
    QTRY_COMPARE(m_panel->sandboxId(), m_fx.sandboxId());
    m_window->toolTabs()->setCurrentWidget(m_panel);
    QTRY_VERIFY_WITH_TIMEOUT(shownRow("seed.txt").isValid(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->followsChanges(), 10000);
}

void TestFilesLive::cleanupTestCase()
{
    m_window.reset();
    m_fx.stop();
}

bool TestFilesLive::exec(const QString& cmd)
{
    ApiWaiter<client::ExecResult> w;
    m_fx.api().exec(m_fx.sandboxId(), cmd, {}, nullptr, w.done());
    return w.wait() && w.ok() && w.value().exitCode == 0;
}

QModelIndex TestFilesLive::shownRow(const QString& name, const QModelIndex& parent) const
{
    const QAbstractItemModel* model = m_view->model();
    for (int row = 0; row < model->rowCount(parent); ++row) {
        const QModelIndex i = model->index(row, 0, parent);
        if (i.data(Qt::DisplayRole).toString() == name)
            return i;
    }
    return {};
}

void TestFilesLive::execCreatesAFileThatShowsWithinASecond()
{
    QVERIFY(!shownRow("made-by-exec.txt").isValid());
    QVERIFY(exec("echo hello > /home/user/made-by-exec.txt && rm /home/user/seed.txt"));
    QElapsedTimer t;
    t.start();
    QTRY_VERIFY_WITH_TIMEOUT(
        shownRow("made-by-exec.txt").isValid() && !shownRow("seed.txt").isValid(), 1000);
    qInfo("the new file showed %lld ms after the exec answered",
          static_cast<long long>(t.elapsed()));
    // Where the user looks: a row of the tree, inside its viewport, with the file's size.
    const QModelIndex row = shownRow("made-by-exec.txt");
    m_view->scrollTo(row);
    QVERIFY(m_view->viewport()->rect().intersects(m_view->visualRect(row)));
    QCOMPARE(row.siblingAtColumn(models::files::SandboxFileModel::SizeColumn).data().toString(),
             QStringLiteral("6 B"));
    const QPixmap picture = m_panel->grab();
    QVERIFY(!picture.isNull());
    lizard::test::saveScreenshot(picture, QStringLiteral("files-live"));
}

void TestFilesLive::expandedSubfolderFollowsToo()
{
    const QModelIndex sub = shownRow("sub");
    QVERIFY(sub.isValid());
    m_view->expand(sub);
    QTRY_VERIFY_WITH_TIMEOUT(shownRow("inner.txt", shownRow("sub")).isValid(), 10000);
    QVERIFY(exec("touch /home/user/sub/late.txt && rm /home/user/sub/inner.txt"));
    QElapsedTimer t;
    t.start();
    QTRY_VERIFY_WITH_TIMEOUT(shownRow("late.txt", shownRow("sub")).isValid() &&
                                 !shownRow("inner.txt", shownRow("sub")).isValid(),
                             1000);
    qInfo("the subfolder's change showed %lld ms after the exec answered",
          static_cast<long long>(t.elapsed()));
    lizard::test::saveScreenshot(m_panel->grab(), QStringLiteral("files-live-subfolder"));
}

void TestFilesLive::aPausedSandboxIsNoError()
{
    QSignalSpy errors(m_panel, &FilesPanel::errorOccurred);
    QSignalSpy messages(m_panel, &FilesPanel::message);
    ApiWaiter<client::Unit> paused;
    m_fx.api().pauseSandbox(m_fx.sandboxId(), nullptr, paused.done());
    LIZ_AWAIT_OK(paused);
    auto* refresh = m_panel->findChild<QAction*>(QStringLiteral("filesRefresh"));
    QVERIFY(refresh);
    refresh->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(
        !messages.isEmpty() && messages.last().at(0).toString().contains(QStringLiteral("paused")),
        10000);
    QCOMPARE(errors.count(), 0);
    QVERIFY(shownRow("made-by-exec.txt").isValid()); // what was shown stays

    ApiWaiter<client::Unit> resumed;
    m_fx.api().resumeSandbox(m_fx.sandboxId(), nullptr, resumed.done());
    LIZ_AWAIT_OK(resumed);
    QVERIFY(exec("echo back > /home/user/after-resume.txt"));
    QTRY_VERIFY_WITH_TIMEOUT(shownRow("after-resume.txt").isValid(), 10000);
    QCOMPARE(errors.count(), 0);
}

QTEST_MAIN(TestFilesLive)
#include "tst_fileslive.moc"
