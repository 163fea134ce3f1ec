// The Changes tab against a real lizard-local: after an agent-like script, the tree shows what
// was added, modified and deleted with their badges, caches hidden and shown, the filter, the
// template's and the sandbox's versions of a file side by side, and Revert putting the
// template's file back and removing an added one, the changes saved as a patch, and the tab
// following the agent on its own while shown (what the user expanded and selected kept). Saves the
// guide's picture.
#include "models/changes/changetreemodel.h"
#include "models/sandboxtablemodel.h"
#include "support/sandboxfixture.h"
#include "support/themedscreenshot.h"
#include "ui/changes/changespanel.h"
#include "ui/changes/diffview.h"
#include "ui/mainwindow.h"
#include "ui/sandboxpanel.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFileInfo>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace lizard;
using lizard::test::ApiWaiter;
using models::changes::ChangeTreeModel;

class TestChangesPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }

    void treeShowsEachKindWithItsBadge();
    void cachesAreHiddenUntilAsked();
    void filterFindsDeepPaths();
    void bothVersionsSideBySide();
    void savesTheChangesAsAPatch();
    void savesTheChangesAsATar();
    void revertPutsTheTemplatesFileBack();
    void revertRemovesAnAddedFile();
    void followsTheAgentWhileShown();
    void comparesAForkWithItsSource();
    void comparesWithASnapshotsVersion();

private:
    QString exec(const QString& cmd);
    bool relist();
    QString shownText(const QString& path, int column) const;

    lizard::test::SandboxFixture m_fx;
    QString m_id;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::changes::ChangesPanel* m_panel = nullptr;
};

void TestChangesPanel::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
    client::CreateSandboxRequest req;
    req.projectId = m_fx.projectId();
    req.timeoutMs = 600000;
    QString why;
    m_id = lizard::test::startSandbox(m_fx.api(), req, &why);
    QVERIFY2(!m_id.isEmpty(), qPrintable(why));
    // What an agent might have done: a project with a cache, a config edited, a file removed.
    QCOMPARE(exec("mkdir -p /root/project/__pycache__ && printf 'print(1)\\n' > "
                  "/root/project/main.py && echo c > /root/project/__pycache__/main.pyc && "
                  "printf 'one\\ntwo\\nthree\\n' > /root/project/notes.txt && "
                  "sed -i 's/^# /#> /' /etc/adduser.conf && rm /etc/issue && echo done"),
             QStringLiteral("done"));
    m_window = std::make_unique<ui::MainWindow>();
    m_window->setBackend(&m_fx.api(), "test", {});
    m_window->resize(1100, 720);
    m_window->show();
    m_panel = m_window->changesPanel();
    QVERIFY(m_panel);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->sandboxModel()->rowOf(m_id) >= 0, 30000);
    m_window->sandboxPanel()->selectSandbox(m_id);
    QSignalSpy listed(m_panel, &ui::changes::ChangesPanel::listed);
    m_window->toolTabs()->setCurrentWidget(m_panel);
    QCOMPARE(m_window->toolTabs()->tabText(m_window->toolTabs()->currentIndex()),
             QStringLiteral("Changes"));
    QTRY_VERIFY_WITH_TIMEOUT(listed.count() > 0 && m_panel->model()->changes().changes.size() > 0,
                             30000);
}

void TestChangesPanel::cleanupTestCase()
{
    m_window.reset();
    if (!m_id.isEmpty())
        lizard::test::killSandbox(m_fx.api(), m_id);
    m_fx.stop();
}

QString TestChangesPanel::exec(const QString& cmd)
{
    ApiWaiter<client::ExecResult> w;
    client::ExecOptions opts;
    opts.timeoutMs = 60000;
    m_fx.api().exec(m_id, cmd, opts, nullptr, w.done());
    if (!w.wait() || !w.ok())
        return QString::fromUtf8(w.why());
    return w.value().stdoutText.trimmed();
}

bool TestChangesPanel::relist()
{
    QSignalSpy listed(m_panel, &ui::changes::ChangesPanel::listed);
    m_panel->refreshAction()->trigger();
    return listed.wait(30000);
}

// What the tree shows for `path` in `column` (through the sort and the filter), or "<hidden>".
QString TestChangesPanel::shownText(const QString& path, int column) const
{
    const QModelIndex source = m_panel->model()->indexOf(path);
    auto* proxy = static_cast<QSortFilterProxyModel*>(m_panel->view()->model());
    const QModelIndex at = proxy->mapFromSource(source);
    if (!at.isValid())
        return QStringLiteral("<hidden>");
    return at.siblingAtColumn(column).data().toString();
}

void TestChangesPanel::treeShowsEachKindWithItsBadge()
{
    QCOMPARE(shownText("/root/project/main.py", ChangeTreeModel::ChangeColumn),
             QStringLiteral("Added"));
    QCOMPARE(shownText("/etc/adduser.conf", ChangeTreeModel::ChangeColumn),
             QStringLiteral("Modified"));
    QCOMPARE(shownText("/etc/issue", ChangeTreeModel::ChangeColumn), QStringLiteral("Deleted"));
    // A folder the sandbox only wrote into is no change itself: it counts what is inside.
    QCOMPARE(shownText("/etc", ChangeTreeModel::ChangeColumn), QStringLiteral("2 inside"));
    QCOMPARE(shownText("/root/project/notes.txt", ChangeTreeModel::SizeColumn),
             QStringLiteral("14 B"));
    QVERIFY2(m_panel->statusText().contains("deleted against the template"),
             qPrintable(m_panel->statusText()));
}

void TestChangesPanel::cachesAreHiddenUntilAsked()
{
    QVERIFY(m_panel->hideCaches()->isChecked());
    QCOMPARE(shownText("/root/project/__pycache__", 0), QStringLiteral("<hidden>"));
    m_panel->hideCaches()->setChecked(false);
    QTRY_COMPARE_WITH_TIMEOUT(
        shownText("/root/project/__pycache__/main.pyc", ChangeTreeModel::ChangeColumn),
        QStringLiteral("Added"), 30000);
    m_panel->hideCaches()->setChecked(true);
    QTRY_COMPARE_WITH_TIMEOUT(shownText("/root/project/__pycache__", 0), QStringLiteral("<hidden>"),
                              30000);
}

void TestChangesPanel::filterFindsDeepPaths()
{
    QTest::keyClicks(m_panel->filter(), "notes");
    QCOMPARE(shownText("/root/project/notes.txt", 0), QStringLiteral("notes.txt"));
    QCOMPARE(shownText("/etc/issue", 0), QStringLiteral("<hidden>"));
    // What matched is shown, not left in a collapsed folder.
    auto* proxy = static_cast<QSortFilterProxyModel*>(m_panel->view()->model());
    QVERIFY(m_panel->view()->isExpanded(
        proxy->mapFromSource(m_panel->model()->indexOf("/root/project"))));
    m_panel->filter()->clear();
    QCOMPARE(shownText("/etc/issue", 0), QStringLiteral("issue"));
}

void TestChangesPanel::bothVersionsSideBySide()
{
    QSignalSpy compared(m_panel, &ui::changes::ChangesPanel::compared);
    QVERIFY(m_panel->selectPath("/etc/adduser.conf"));
    QVERIFY(compared.wait(30000));
    ui::changes::DiffView* diff = m_panel->diffView();
    QCOMPARE(diff->title(), QStringLiteral("/etc/adduser.conf"));
    QVERIFY2(diff->leftText().contains("\n# ") && !diff->leftText().contains("#> "),
             qPrintable(diff->leftText().left(300)));
    QVERIFY(diff->rightText().contains("#> "));
    QVERIFY2(diff->summary().startsWith(QStringLiteral("−")), qPrintable(diff->summary()));
    // Each line with its number; selected lines copied as the file has them.
    QTableView* right = diff->rightSide();
    QCOMPARE(right->model()->index(0, 0).data().toString(), QStringLiteral("1"));
    right->selectionModel()->select(right->model()->index(0, 0),
                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
    right->selectionModel()->select(right->model()->index(1, 0),
                                    QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QVERIFY(!right->actions().isEmpty());
    right->actions().constFirst()->trigger();
    QCOMPARE(QApplication::clipboard()->text(), diff->rightText().section(QLatin1Char('\n'), 0, 1));
    // An added file has no template side.
    QVERIFY(m_panel->selectPath("/root/project/notes.txt"));
    QVERIFY(compared.wait(30000));
    QCOMPARE(diff->leftText(), QStringLiteral("(not in the template)"));
    QCOMPARE(diff->rightText(), QStringLiteral("one\ntwo\nthree"));
    QCOMPARE(diff->summary(), QStringLiteral("−0 +3 lines"));
    QVERIFY(m_panel->selectPath("/etc/adduser.conf"));
    QVERIFY(compared.wait(30000));
    lizard::test::saveLightAndDark(m_window.get(), QStringLiteral("changes"));
}

// Save as patch…: every listed file's change in one patch (modified, deleted, added), folders
// implied by their files, and the action off while it is made.
void TestChangesPanel::savesTheChangesAsAPatch()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath("changes.patch");
    QVERIFY(m_panel->patchAction()->isEnabled());
    QSignalSpy saved(m_panel, &ui::changes::ChangesPanel::patchSaved);
    QSignalSpy message(m_panel, &ui::changes::ChangesPanel::message);
    m_panel->savePatch(file);
    QVERIFY(!m_panel->patchAction()->isEnabled());
    QVERIFY2(saved.wait(60000), qPrintable(message.value(0).value(0).toString()));
    QVERIFY(m_panel->patchAction()->isEnabled());
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray patch = f.readAll();
    QVERIFY2(patch.startsWith("# The changes of sandbox " + m_id.toUtf8() +
                              " against its "
                              "template"),
             patch.left(300).constData());
    QVERIFY2(patch.contains("diff --git a/etc/adduser.conf b/etc/adduser.conf\n--- "
                            "a/etc/adduser.conf\n+++ b/etc/adduser.conf\n@@ -"),
             patch.constData());
    QVERIFY(patch.contains("\n+#> "));
    QVERIFY(patch.contains("diff --git a/etc/issue b/etc/issue\ndeleted file mode 100644\n"));
    QVERIFY(patch.contains("new file mode 100644\n--- /dev/null\n+++ b/root/project/notes.txt\n"
                           "@@ -0,0 +1,3 @@\n+one\n+two\n+three\n"));
    QVERIFY(patch.contains("+++ b/root/project/main.py\n@@ -0,0 +1 @@\n+print(1)\n"));
    QVERIFY(!patch.contains("diff --git a/root/project b/"));
    QCOMPARE(saved.value(0).value(1).toInt(), int(patch.count("diff --git ")));
    QVERIFY2(m_panel->statusText().startsWith("Saved "), qPrintable(m_panel->statusText()));
}

void TestChangesPanel::revertPutsTheTemplatesFileBack()
{
    QVERIFY(m_panel->selectPath("/etc/issue"));
    QVERIFY(m_panel->revertAction()->isEnabled());
    m_panel->revert("/etc/issue");
    // Back as the template has it: written again, so still a change, but no longer deleted.
    QTRY_COMPARE_WITH_TIMEOUT(shownText("/etc/issue", ChangeTreeModel::ChangeColumn),
                              QStringLiteral("Modified"), 30000);
    QVERIFY2(exec("cat /etc/issue").startsWith("Debian"), qPrintable(exec("cat /etc/issue")));
}

void TestChangesPanel::revertRemovesAnAddedFile()
{
    QVERIFY(m_panel->selectPath("/root/project/notes.txt"));
    m_panel->revert("/root/project/notes.txt");
    QTRY_COMPARE_WITH_TIMEOUT(shownText("/root/project/notes.txt", 0), QStringLiteral("<hidden>"),
                              30000);
    QCOMPARE(exec("test -e /root/project/notes.txt && echo there || echo gone"),
             QStringLiteral("gone"));
}

void TestChangesPanel::followsTheAgentWhileShown()
{
    // The user opened a folder and selected a file; the agent goes on working.
    auto* proxy = static_cast<QSortFilterProxyModel*>(m_panel->view()->model());
    const QModelIndex project = proxy->mapFromSource(m_panel->model()->indexOf("/root/project"));
    m_panel->view()->expand(project);
    QVERIFY(m_panel->selectPath("/etc/adduser.conf"));
    QCOMPARE(exec("mkdir -p /srv/agent/out && echo r > /srv/agent/out/result.json && echo ok"),
             QStringLiteral("ok"));
    // No Refresh pressed: the tab lists again on its own.
    QTRY_COMPARE_WITH_TIMEOUT(shownText("/srv/agent", ChangeTreeModel::ChangeColumn),
                              QStringLiteral("Added, 2 inside"), 20000);
    QVERIFY(m_panel->view()->isExpanded(
        proxy->mapFromSource(m_panel->model()->indexOf("/root/project"))));
    QCOMPARE(m_panel->view()->currentIndex().data(ChangeTreeModel::PathRole).toString(),
             QStringLiteral("/etc/adduser.conf"));
    // Hidden, it stops listing.
    m_window->toolTabs()->setCurrentIndex(0);
    QTest::qWait(1000); // a listing already asked for may still arrive
    QSignalSpy listed(m_panel, &ui::changes::ChangesPanel::listed);
    QTest::qWait(7000);
    QCOMPARE(listed.count(), 0);
}

// Against its source, a fork shows only what it did since: the file it wrote is added, the
// source's changes it inherited are no difference, and Revert (the template's file) is off.
void TestChangesPanel::comparesAForkWithItsSource()
{
    ApiWaiter<QList<client::ForkEntry>> forked;
    m_fx.api().forkSandbox(m_id, 1, 600000, nullptr, forked.done());
    QVERIFY2(forked.wait() && forked.ok(), forked.why().constData());
    const auto entry = forked.value().value(0);
    const QString fork = entry.sandbox ? entry.sandbox->sandboxId : QString();
    QVERIFY2(!fork.isEmpty(), qPrintable(entry.error));
    {
        ApiWaiter<client::ExecResult> w;
        client::ExecOptions opts;
        m_fx.api().exec(fork, "echo mine > /root/project/fork-only.txt", opts, nullptr, w.done());
        QVERIFY(w.wait() && w.ok());
    }
    m_window->toolTabs()->setCurrentWidget(m_panel);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->sandboxModel()->rowOf(fork) >= 0, 30000);
    m_window->sandboxPanel()->selectSandbox(fork);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->againstBox()->findData(m_id) > 0, 30000);
    QSignalSpy listed(m_panel, &ui::changes::ChangesPanel::listed);
    const int at = m_panel->againstBox()->findData(m_id);
    m_panel->againstBox()->setCurrentIndex(at);
    emit m_panel->againstBox()->activated(at);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->statusText().contains("against sandbox " + m_id), 30000);
    QCOMPARE(shownText("/root/project/fork-only.txt", ChangeTreeModel::ChangeColumn),
             QStringLiteral("Added"));
    QCOMPARE(shownText("/root/project/main.py", ChangeTreeModel::ChangeColumn),
             QStringLiteral("<hidden>")); // inherited, unchanged: no difference
    QVERIFY(m_panel->selectPath("/root/project/fork-only.txt"));
    QVERIFY(!m_panel->revertAction()->isEnabled());
    QVERIFY(!m_panel->tarAction()->isEnabled()); // a tar is of the sandbox's own layer
    QTRY_COMPARE_WITH_TIMEOUT(m_panel->diffView()->leftText(), "(not in sandbox " + m_id + ")",
                              30000);
    lizard::test::saveLightAndDark(m_window.get(), "changes-compare");
    lizard::test::killSandbox(m_fx.api(), fork);
}

// Save as tar…: the sandbox's layer as lizard-local archives it, read back by GNU tar: what was
// added and changed with its bytes, the deletion as a .wh. file, the hidden caches left out.
void TestChangesPanel::savesTheChangesAsATar()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString file = dir.filePath("changes.tar");
    QVERIFY(m_panel->hideCaches()->isChecked());
    QVERIFY(m_panel->tarAction()->isEnabled());
    QSignalSpy saved(m_panel, &ui::changes::ChangesPanel::tarSaved);
    m_panel->saveTar(file);
    QCOMPARE(m_panel->tarAction()->text(), QStringLiteral("Cancel the tar"));
    QVERIFY2(saved.wait(60000), qPrintable(m_panel->statusText()));
    QCOMPARE(saved.at(0).at(1).toLongLong(), QFileInfo(file).size());
    QCOMPARE(m_panel->tarAction()->text(), QStringLiteral("Save as tar…"));
    QProcess tar;
    tar.start(QStringLiteral("tar"), {QStringLiteral("-tf"), file});
    QVERIFY(tar.waitForFinished(30000));
    QCOMPARE(tar.exitCode(), 0);
    const QStringList names =
        QString::fromUtf8(tar.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
    for (const char* name :
         {"root/project/notes.txt", "root/project/main.py", "etc/adduser.conf", "etc/.wh.issue"})
        QVERIFY2(names.contains(QLatin1String(name)), qPrintable(names.join(' ')));
    QVERIFY2(!names.join(' ').contains("__pycache__"), qPrintable(names.join(' ')));
    tar.start(QStringLiteral("tar"),
              {QStringLiteral("-xOf"), file, QStringLiteral("root/project/notes.txt")});
    QVERIFY(tar.waitForFinished(30000));
    QCOMPARE(tar.readAllStandardOutput(), QByteArray("one\ntwo\nthree\n"));
}

// Against a snapshot, a file's left side is the snapshot's version of it.
void TestChangesPanel::comparesWithASnapshotsVersion()
{
    QCOMPARE(exec("echo before > /root/snapped.txt && echo ok"), QStringLiteral("ok"));
    ApiWaiter<client::Snapshot> made;
    m_fx.api().createSnapshot(m_id, QStringLiteral("changes-test"), nullptr, made.done());
    QVERIFY2(made.wait() && made.ok(), made.why().constData());
    const QString snap = made.value().id;
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            ApiWaiter<client::Snapshot> got;
            m_fx.api().getSnapshot(snap, nullptr, got.done());
            return got.wait() && got.ok() && got.value().status == QLatin1String("ready");
        }(),
        60000);
    QCOMPARE(exec("echo after > /root/snapped.txt && echo ok"), QStringLiteral("ok"));
    m_window->sandboxPanel()->selectSandbox(m_id);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->againstBox()->findData(snap) > 0, 30000);
    const int at = m_panel->againstBox()->findData(snap);
    m_panel->againstBox()->setCurrentIndex(at);
    emit m_panel->againstBox()->activated(at);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->statusText().contains("against snapshot " + snap), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(shownText("/root/snapped.txt", ChangeTreeModel::ChangeColumn),
                              QStringLiteral("Modified"), 30000);
    QSignalSpy compared(m_panel, &ui::changes::ChangesPanel::compared);
    QVERIFY(m_panel->selectPath("/root/snapped.txt"));
    QVERIFY(compared.wait(30000));
    QCOMPARE(m_panel->diffView()->leftText(), QStringLiteral("before"));
    QCOMPARE(m_panel->diffView()->rightText(), QStringLiteral("after"));
    QVERIFY(m_panel->patchAction()->isEnabled());
    ApiWaiter<client::Unit> gone;
    m_fx.api().deleteSnapshot(snap, nullptr, gone.done());
    QVERIFY(gone.wait() && gone.ok());
}

QTEST_MAIN(TestChangesPanel)
#include "tst_changespanel.moc"
