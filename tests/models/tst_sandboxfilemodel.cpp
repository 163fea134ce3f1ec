// SandboxFileModel, FileSortProxy and FileOperations against a real lizard-local, each model
// under QAbstractItemModelTester: lazy listing, columns, folders-first sorting, refresh that
// keeps expanded folders, 10,000 entries in one insert, and new folder / rename / move / delete.
#include "models/files/fileoperations.h"
#include "models/files/filesortproxy.h"
#include "models/files/remotepath.h"
#include "models/files/sandboxfilemodel.h"
#include "support/sandboxfixture.h"
#include "support/wait.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace lizard;
using lizard::test::ApiWaiter;
using models::files::FileOperations;
using models::files::FileSortProxy;
using models::files::RemotePath;
using models::files::SandboxFileModel;

class TestSandboxFileModel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase() { m_fx.stop(); }
    void cleanup() { m_fx.reportIfFailed(); }

    void remotePaths_data();
    void remotePaths();
    void listsLazily();
    void wholeTreeUnderTester();
    void sortsFoldersFirst_data();
    void sortsFoldersFirst();
    void refreshAppliesDifferences();
    void refreshDuringTheFirstListingListsAgain();
    void listFailureDoesNotRetryForever();
    void tenThousandEntriesInOneInsert();
    void symlinkedFoldersActAsFolders();
    void operations();
    void operationsRefuseBadInput_data();
    void operationsRefuseBadInput();

private:
    bool sh(const QString& script);
    QStringList names(const QAbstractItemModel& model, const QModelIndex& parent = {}) const;
    bool listed(SandboxFileModel& model, const QModelIndex& dir);

    lizard::test::SandboxFixture m_fx;
};

void TestSandboxFileModel::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
    QVERIFY(sh(
        "mkdir -p /home/user/t/bdir/inner /home/user/t/Adir && cd /home/user/t && "
        "printf 12345 > big.txt && printf 1 > a.txt && printf 123 > Cfile && chmod 0750 Cfile && "
        "printf x > bdir/inner/deep.txt && printf yy > bdir/b1"));
}

bool TestSandboxFileModel::sh(const QString& script)
{
    ApiWaiter<client::ExecResult> r;
    m_fx.api().execArgv(m_fx.sandboxId(), {"bash", "-c", script}, {}, nullptr, r.done());
    if (!r.wait() || !r.ok()) {
        qWarning() << r.why();
        return false;
    }
    if (r.value().exitCode != 0)
        qWarning() << "exit" << r.value().exitCode << r.value().stderrText;
    return r.value().exitCode == 0;
}

QStringList TestSandboxFileModel::names(const QAbstractItemModel& model,
                                        const QModelIndex& parent) const
{
    QStringList out;
    for (int row = 0; row < model.rowCount(parent); ++row)
        out.append(model.index(row, 0, parent).data().toString());
    return out;
}

bool TestSandboxFileModel::listed(SandboxFileModel& model, const QModelIndex& dir)
{
    QSignalSpy spy(&model, &SandboxFileModel::directoryListed);
    QSignalSpy failed(&model, &SandboxFileModel::listFailed);
    if (model.canFetchMore(dir))
        model.fetchMore(dir);
    else if (!model.isListing(dir))
        return model.isListed(dir);
    // (a QAbstractItemModelTester may have asked for the rows already: then we wait for those)
    // Only this folder's answer counts: another folder (the root listed again) may answer first.
    const QString path =
        dir.isValid() ? dir.data(SandboxFileModel::PathRole).toString() : model.rootPath();
    const auto seen = [&path](const QSignalSpy& s) {
        for (const QList<QVariant>& args : s)
            if (args.at(0).toString() == path)
                return true;
        return false;
    };
    (void)lizard::test::waitUntil([&] { return seen(spy) || seen(failed); }, 30000);
    if (seen(failed))
        qWarning() << "listing failed:"
                   << failed.at(0).at(1).value<client::ApiError>().toDisplayString();
    return seen(spy);
}

void TestSandboxFileModel::remotePaths_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("clean");
    QTest::addColumn<QString>("parent");
    QTest::addColumn<QString>("name");
    QTest::newRow("root") << "/"
                          << "/"
                          << "/"
                          << "/";
    QTest::newRow("empty") << ""
                           << "/"
                           << "/"
                           << "/";
    QTest::newRow("plain") << "/home/user"
                           << "/home/user"
                           << "/home"
                           << "user";
    QTest::newRow("messy") << "/a//b/./c/../d/"
                           << "/a/b/d"
                           << "/a/b"
                           << "d";
    QTest::newRow("above root") << "/../../etc"
                                << "/etc"
                                << "/"
                                << "etc";
    QTest::newRow("relative") << "tmp/x"
                              << "/tmp/x"
                              << "/tmp"
                              << "x";
}

void TestSandboxFileModel::remotePaths()
{
    QFETCH(QString, path);
    QFETCH(QString, clean);
    QFETCH(QString, parent);
    QFETCH(QString, name);
    QCOMPARE(RemotePath::clean(path), clean);
    QCOMPARE(RemotePath::parentOf(path), parent);
    QCOMPARE(RemotePath::fileName(path), name);
    QVERIFY(RemotePath::isInside("/a/b", "/a"));
    QVERIFY(!RemotePath::isInside("/ab", "/a"));
    QVERIFY(!RemotePath::isInside("/a", "/a"));
    QVERIFY(RemotePath::isInside("/a", "/"));
}

void TestSandboxFileModel::listsLazily()
{
    // No tester here: it asks for every folder's rows, and this checks that nothing else does.
    SandboxFileModel model(&m_fx.api());
    model.setLocation(m_fx.sandboxId(), "/home/user/t/");
    QCOMPARE(model.rootPath(), QString("/home/user/t"));
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(model.hasChildren());
    QVERIFY(model.canFetchMore({}));
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QVERIFY(listed(model, {}));
    QCOMPARE(inserted.count(), 1); // one insert for the whole folder
    // Folders first, then files, each by name without regard to case.
    QCOMPARE(names(model), QStringList({"Adir", "bdir", "a.txt", "big.txt", "Cfile"}));

    const QModelIndex cfile = model.indexForPath("/home/user/t/Cfile");
    QVERIFY(cfile.isValid());
    QCOMPARE(cfile.siblingAtColumn(SandboxFileModel::SizeColumn).data().toString(), QString("3 B"));
    QCOMPARE(cfile.siblingAtColumn(SandboxFileModel::PermissionsColumn).data().toString(),
             QString("-rwxr-x---"));
    const QDateTime modified = cfile.data(SandboxFileModel::ModifiedRole).toDateTime();
    QVERIFY(modified.isValid());
    QVERIFY(qAbs(modified.secsTo(QDateTime::currentDateTime())) < 600);
    QVERIFY(!cfile.siblingAtColumn(SandboxFileModel::ModifiedColumn).data().toString().isEmpty());
    QVERIFY(!model.hasChildren(cfile));
    QVERIFY(!model.canFetchMore(cfile));

    // A folder is listed only when asked.
    const QModelIndex bdir = model.indexForPath("/home/user/t/bdir");
    QVERIFY(model.hasChildren(bdir));
    QCOMPARE(model.rowCount(bdir), 0);
    QVERIFY(model.canFetchMore(bdir));
    QVERIFY(listed(model, bdir));
    QCOMPARE(names(model, bdir), QStringList({"inner", "b1"}));
    const QModelIndex adir = model.indexForPath("/home/user/t/Adir");
    QVERIFY(listed(model, adir));
    QVERIFY(!model.hasChildren(adir)); // empty folder: no expander once listed
    QCOMPARE(
        model.indexForPath("/home/user/t/bdir/inner").data(SandboxFileModel::PathRole).toString(),
        QString("/home/user/t/bdir/inner"));
}

void TestSandboxFileModel::wholeTreeUnderTester()
{
    // The tester fetches every folder it sees; the whole tree arrives and stays consistent.
    SandboxFileModel model(&m_fx.api());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLocation(m_fx.sandboxId(), "/home/user/t");
    if (model.canFetchMore({}))
        model.fetchMore({});
    QTRY_VERIFY_WITH_TIMEOUT(model.indexForPath("/home/user/t/bdir/inner/deep.txt").isValid(),
                             30000);
    QTRY_VERIFY_WITH_TIMEOUT(model.isListed(model.indexForPath("/home/user/t/Adir")), 30000);
    model.refresh();
    QTRY_VERIFY_WITH_TIMEOUT(!model.isListing({}) &&
                                 !model.isListing(model.indexForPath("/home/user/t/bdir/inner")),
                             30000);
    QVERIFY(model.indexForPath("/home/user/t/bdir/inner/deep.txt").isValid());
}

void TestSandboxFileModel::sortsFoldersFirst_data()
{
    QTest::addColumn<int>("column");
    QTest::addColumn<Qt::SortOrder>("order");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("name up") << int(SandboxFileModel::NameColumn) << Qt::AscendingOrder
                             << QStringList{"Adir", "bdir", "a.txt", "big.txt", "Cfile"};
    QTest::newRow("name down") << int(SandboxFileModel::NameColumn) << Qt::DescendingOrder
                               << QStringList{"bdir", "Adir", "Cfile", "big.txt", "a.txt"};
    QTest::newRow("size up") << int(SandboxFileModel::SizeColumn) << Qt::AscendingOrder
                             << QStringList{"Adir", "bdir", "a.txt", "Cfile", "big.txt"};
    // Ties (folders have no size) stay in name order whichever way the column sorts.
    QTest::newRow("size down") << int(SandboxFileModel::SizeColumn) << Qt::DescendingOrder
                               << QStringList{"Adir", "bdir", "big.txt", "Cfile", "a.txt"};
}

void TestSandboxFileModel::sortsFoldersFirst()
{
    QFETCH(int, column);
    QFETCH(Qt::SortOrder, order);
    QFETCH(QStringList, expected);
    SandboxFileModel model(&m_fx.api());
    FileSortProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLocation(m_fx.sandboxId(), "/home/user/t");
    proxy.sort(column, order);
    QVERIFY(proxy.canFetchMore({}) || model.isListing({})); // lazy listing passes through the proxy
    if (proxy.canFetchMore({}))
        proxy.fetchMore({});
    QTRY_VERIFY_WITH_TIMEOUT(model.isListed({}), 30000);
    QCOMPARE(names(proxy), expected);
}

void TestSandboxFileModel::refreshAppliesDifferences()
{
    QVERIFY(sh("mkdir -p /home/user/r/keep && printf 1 > /home/user/r/gone && printf 1 > "
               "/home/user/r/grows && "
               "printf 1 > /home/user/r/keep/k"));
    SandboxFileModel model(&m_fx.api());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLocation(m_fx.sandboxId(), "/home/user/r");
    QVERIFY(listed(model, {}));
    const QPersistentModelIndex keep = model.indexForPath("/home/user/r/keep");
    QVERIFY(listed(model, keep));
    QCOMPARE(names(model), QStringList({"keep", "gone", "grows"}));

    QVERIFY(sh("cd /home/user/r && rm gone && printf 123456 > grows && printf 1 > new1 && printf 1 "
               "> keep/k2"));
    QSignalSpy spy(&model, &SandboxFileModel::directoryListed);
    model.refresh();
    QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 2, 30000); // the root and the expanded "keep"
    QCOMPARE(names(model), QStringList({"keep", "grows", "new1"}));
    QVERIFY(keep.isValid()); // the expanded folder stayed (with its rows)
    QCOMPARE(names(model, keep), QStringList({"k", "k2"}));
    QCOMPARE(model.indexForPath("/home/user/r/grows").data(SandboxFileModel::SizeRole).toLongLong(),
             6);

    // refreshPath only for folders that are shown.
    QVERIFY(model.refreshPath("/home/user/r/keep"));
    QVERIFY(!model.refreshPath("/home/user/elsewhere"));
    QVERIFY(spy.wait(30000));
}

// An upload that ends while the folder's first listing is on its way: the refresh it asks for
// must not be dropped, or the new file shows only after a manual Refresh.
void TestSandboxFileModel::refreshDuringTheFirstListingListsAgain()
{
    SandboxFileModel model(&m_fx.api());
    QSignalSpy spy(&model, &SandboxFileModel::directoryListed);
    model.setLocation(m_fx.sandboxId(), "/home/user/t");
    model.fetchMore({});
    QVERIFY(model.isListing({}));
    QVERIFY(model.refreshPath("/home/user/t"));
    QTRY_COMPARE_WITH_TIMEOUT(spy.count(), 2, 30000);
    QVERIFY(model.isListed({}));
    QVERIFY(!model.isListing({}));
}

void TestSandboxFileModel::listFailureDoesNotRetryForever()
{
    SandboxFileModel model(&m_fx.api());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy failed(&model, &SandboxFileModel::listFailed);
    model.setLocation(m_fx.sandboxId(), "/home/user/does-not-exist");
    model.fetchMore({});
    QVERIFY(failed.wait(30000));
    QCOMPARE(failed.at(0).at(0).toString(), QString("/home/user/does-not-exist"));
    QCOMPARE(failed.at(0).at(1).value<client::ApiError>().kind, client::ApiError::Kind::NotFound);
    QVERIFY(!model.canFetchMore({})); // a view will not ask again and again
    QCOMPARE(model.rowCount(), 0);
}

void TestSandboxFileModel::tenThousandEntriesInOneInsert()
{
    QVERIFY(sh("mkdir -p /home/user/many && cd /home/user/many && python3 -c \"import os\n"
               "for i in range(10000): open('f%05d' % i, 'w').close()\""));
    SandboxFileModel model(&m_fx.api());
    FileSortProxy proxy;
    proxy.setSourceModel(&model);
    proxy.sort(SandboxFileModel::NameColumn);
    model.setLocation(m_fx.sandboxId(), "/home/user/many");
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QElapsedTimer t;
    t.start();
    QVERIFY(listed(model, {}));
    const qint64 ms = t.elapsed();
    QCOMPARE(model.rowCount(), 10000);
    QCOMPARE(proxy.rowCount(), 10000);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(proxy.index(9999, 0).data().toString(), QString("f09999"));
    qInfo("10,000 entries listed and sorted in %lld ms", static_cast<long long>(ms));
}

void TestSandboxFileModel::symlinkedFoldersActAsFolders()
{
    QVERIFY(sh("mkdir -p /home/user/lk/real && cd /home/user/lk && printf 1 > real/inside && "
               "printf 22 > f && "
               "ln -s /home/user/lk/real dlink && ln -s f flink && ln -s nowhere dangling"));
    SandboxFileModel model(&m_fx.api());
    FileSortProxy proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(SandboxFileModel::NameColumn);
    model.setLocation(m_fx.sandboxId(), "/home/user/lk");
    QVERIFY(listed(model, {}));
    const QPersistentModelIndex dlink = model.indexForPath("/home/user/lk/dlink");
    QVERIFY(dlink.isValid());
    // The probe finds that dlink leads to a folder: it moves up among the folders.
    QTRY_VERIFY_WITH_TIMEOUT(dlink.data(SandboxFileModel::IsDirRole).toBool(), 30000);
    QCOMPARE(dlink.data(SandboxFileModel::TypeRole).toString(), QString("symlink"));
    QCOMPARE(names(proxy), QStringList({"dlink", "real", "dangling", "f", "flink"}));
    QVERIFY(!model.indexForPath("/home/user/lk/flink").data(SandboxFileModel::IsDirRole).toBool());
    QVERIFY(
        !model.indexForPath("/home/user/lk/dangling").data(SandboxFileModel::IsDirRole).toBool());
    QVERIFY(model.hasChildren(dlink));
    QVERIFY(listed(model, dlink));
    QCOMPARE(names(model, dlink), QStringList{"inside"});
    QCOMPARE(model.index(0, 0, dlink).data(SandboxFileModel::PathRole).toString(),
             QString("/home/user/lk/dlink/inside"));

    // Pointed at a file instead: the refresh's probe turns it back into a file without rows.
    QVERIFY(sh("ln -sfn f /home/user/lk/dlink"));
    model.refresh();
    QTRY_VERIFY_WITH_TIMEOUT(!dlink.data(SandboxFileModel::IsDirRole).toBool(), 30000);
    QCOMPARE(model.rowCount(dlink), 0);
    QVERIFY(!model.canFetchMore(dlink));
    QCOMPARE(names(proxy), QStringList({"real", "dangling", "dlink", "f", "flink"}));
}

void TestSandboxFileModel::operations()
{
    QVERIFY(sh("mkdir -p /home/user/ops/dest && printf hello > /home/user/ops/f.txt && printf 2 > "
               "/home/user/ops/g"));
    SandboxFileModel model(&m_fx.api());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setLocation(m_fx.sandboxId(), "/home/user/ops");
    QVERIFY(listed(model, {}));
    FileOperations ops(&m_fx.api(), &model);
    QSignalSpy ok(&ops, &FileOperations::succeeded);
    QSignalSpy failed(&ops, &FileOperations::failed);

    ops.makeDir("/home/user/ops", "new folder");
    QTRY_VERIFY_WITH_TIMEOUT(model.indexForPath("/home/user/ops/new folder").isValid(), 30000);
    QCOMPARE(
        model.indexForPath("/home/user/ops/new folder").data(SandboxFileModel::IsDirRole).toBool(),
        true);

    ops.rename("/home/user/ops/f.txt", "renamed.txt");
    QTRY_VERIFY_WITH_TIMEOUT(model.indexForPath("/home/user/ops/renamed.txt").isValid(), 30000);
    QVERIFY(!model.indexForPath("/home/user/ops/f.txt").isValid());

    // Renaming onto an existing name is refused; nothing is lost.
    ops.rename("/home/user/ops/renamed.txt", "g");
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
    QVERIFY(failed.at(0).at(0).value<client::ApiError>().message.contains("already exists"));
    ApiWaiter<QByteArray> g;
    m_fx.api().readFile(m_fx.sandboxId(), "/home/user/ops/g", nullptr, g.done());
    LIZ_AWAIT_OK(g);
    QCOMPARE(g.value(), QByteArray("2"));

    // Move into an existing folder, and to a new path.
    ops.move("/home/user/ops/renamed.txt", "/home/user/ops/dest");
    QTRY_VERIFY_WITH_TIMEOUT(!model.indexForPath("/home/user/ops/renamed.txt").isValid(), 30000);
    ApiWaiter<QByteArray> moved;
    m_fx.api().readFile(m_fx.sandboxId(), "/home/user/ops/dest/renamed.txt", nullptr, moved.done());
    LIZ_AWAIT_OK(moved);
    QCOMPARE(moved.value(), QByteArray("hello"));
    ops.move("/home/user/ops/g", "/home/user/ops/dest/sub/g2");
    QTRY_VERIFY_WITH_TIMEOUT(!model.indexForPath("/home/user/ops/g").isValid(), 30000);
    ApiWaiter<client::FileEntry> g2;
    m_fx.api().statFile(m_fx.sandboxId(), "/home/user/ops/dest/sub/g2", nullptr, g2.done());
    LIZ_AWAIT_OK(g2);

    // Delete a folder with contents.
    ops.remove("/home/user/ops/dest");
    QTRY_VERIFY_WITH_TIMEOUT(!model.indexForPath("/home/user/ops/dest").isValid(), 30000);
    ApiWaiter<client::FileEntry> gone;
    m_fx.api().statFile(m_fx.sandboxId(), "/home/user/ops/dest", nullptr, gone.done());
    QVERIFY(gone.wait());
    QCOMPARE(gone.error().kind, client::ApiError::Kind::NotFound);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(ok.count(), 5);
}

void TestSandboxFileModel::operationsRefuseBadInput_data()
{
    QTest::addColumn<QString>("op");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("arg");
    QTest::addColumn<QString>("why");
    QTest::newRow("empty folder name") << "mkdir"
                                       << "/home/user"
                                       << ""
                                       << "empty";
    QTest::newRow("slash in name") << "mkdir"
                                   << "/home/user"
                                   << "a/b"
                                   << "/";
    QTest::newRow("dot-dot name") << "rename"
                                  << "/home/user/t/a.txt"
                                  << ".."
                                  << "not a usable name";
    QTest::newRow("move into itself") << "move"
                                      << "/home/user/t"
                                      << "/home/user/t/bdir/x"
                                      << "into itself";
    QTest::newRow("delete root") << "remove"
                                 << "/"
                                 << ""
                                 << "refusing";
}

void TestSandboxFileModel::operationsRefuseBadInput()
{
    QFETCH(QString, op);
    QFETCH(QString, path);
    QFETCH(QString, arg);
    QFETCH(QString, why);
    SandboxFileModel model(&m_fx.api());
    model.setLocation(m_fx.sandboxId(), "/home/user");
    FileOperations ops(&m_fx.api(), &model);
    QSignalSpy failed(&ops, &FileOperations::failed);
    if (op == "mkdir")
        ops.makeDir(path, arg);
    else if (op == "rename")
        ops.rename(path, arg);
    else if (op == "move")
        ops.move(path, arg);
    else
        ops.remove(path);
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
    const QString message = failed.at(0).at(0).value<client::ApiError>().message;
    QVERIFY2(message.contains(why), qPrintable(message));
    QVERIFY(sh("test -f /home/user/t/a.txt && test -d /home/user/t/bdir"));
}

QTEST_GUILESS_MAIN(TestSandboxFileModel)
#include "tst_sandboxfilemodel.moc"
