// The Files tab in the main window against a real lizard-local: it follows the selected
// sandbox, opens text in an editor tab (Ctrl+S saves, "*" while dirty, a stale-file warning
// when the sandbox changed the file), images in an image tab, uploads dropped files, and asks
// before deleting.
#include "models/files/sandboxfilemodel.h"
#include "models/files/transferjobsmodel.h"
#include "models/sandboxtablemodel.h"
#include "support/sandboxfixture.h"
#include "support/wait.h"
#include "ui/documenttabs.h"
#include "ui/files/fileeditorpage.h"
#include "ui/files/filespanel.h"
#include "ui/files/imageviewpage.h"
#include "ui/mainwindow.h"
#include "ui/sandboxpanel.h"

#include <QApplication>
#include <QBuffer>
#include <QImage>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

using namespace lizard;
using lizard::test::ApiWaiter;
using models::files::SandboxFileModel;
using ui::files::FileEditorPage;
using ui::files::FilesPanel;

class TestFilesPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup()
    {
        m_fx.reportIfFailed();
        qDeleteAll(findChildren<QTimer*>()); // a failed test leaves no answerer for the next one
    }

    void followsSelectedSandbox();
    void editAndSave();
    void staleFileWarning();
    void closeAsksAboutUnsavedChanges();
    void opensImage();
    void dropUploads();
    void deleteAsksFirst();
    void symlinkedFolderActsAsFolder();

private:
    bool write(const QString& path, const QByteArray& content);
    QByteArray read(const QString& path);
    FileEditorPage* openEditor(const QString& path);
    // What typing does (setPlainText would reset the modified flag).
    static void replaceText(FileEditorPage* page, const QString& text)
    {
        page->editor()->selectAll();
        page->editor()->insertPlainText(text);
    }
    // Answers the next modal message box with the button whose text is `button`; returns its text.
    void answerNextMessageBox(const QString& button, QString* seenText);

    lizard::test::SandboxFixture m_fx;
    std::unique_ptr<ui::MainWindow> m_window;
    FilesPanel* m_panel = nullptr;
    QTemporaryDir m_tmp;
};

void TestFilesPanel::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
    QVERIFY(write("/home/user/notes.py", "print('hello')\n"));
    QVERIFY(write("/home/user/docs/readme.md", "# Files\n"));
    m_window = std::make_unique<ui::MainWindow>();
    m_window->setBackend(&m_fx.api(), "test", {});
    m_window->show();
    m_panel = m_window->filesPanel();
    QVERIFY(m_panel);
}

void TestFilesPanel::cleanupTestCase()
{
    if (m_window) {
        for (ui::DocumentPage* page : m_window->documentTabs()->documents())
            if (auto* editor = qobject_cast<FileEditorPage*>(page))
                editor->editor()->document()->setModified(
                    false); // no "unsaved changes" question at exit
    }
    m_window.reset();
    m_fx.stop();
}

bool TestFilesPanel::write(const QString& path, const QByteArray& content)
{
    ApiWaiter<client::Unit> w;
    m_fx.api().writeFile(m_fx.sandboxId(), path, content, nullptr, w.done());
    return w.wait() && w.ok();
}

QByteArray TestFilesPanel::read(const QString& path)
{
    ApiWaiter<QByteArray> r;
    m_fx.api().readFile(m_fx.sandboxId(), path, nullptr, r.done());
    return r.wait() && r.ok() ? r.value() : QByteArray("<failed: ") + r.why() + ">";
}

FileEditorPage* TestFilesPanel::openEditor(const QString& path)
{
    ui::DocumentTabs* tabs = m_window->documentTabs();
    m_panel->openPath(path);
    FileEditorPage* found = nullptr;
    const auto find = [&] {
        for (ui::DocumentPage* page : tabs->documents())
            if (auto* e = qobject_cast<FileEditorPage*>(page); e && e->path() == path)
                found = e;
        return found != nullptr;
    };
    (void)lizard::test::waitUntil(find, 30000);
    return found;
}

void TestFilesPanel::answerNextMessageBox(const QString& button, QString* seenText)
{
    auto* timer = new QTimer(this);
    timer->setInterval(20);
    connect(timer, &QTimer::timeout, this, [timer, button, seenText] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        if (box == nullptr)
            return;
        timer->stop();
        timer->deleteLater();
        if (seenText)
            *seenText = box->text();
        for (QAbstractButton* b : box->buttons()) {
            if (b->text().remove('&') == button) {
                b->click();
                return;
            }
        }
        box->reject();
    });
    timer->start();
}

void TestFilesPanel::followsSelectedSandbox()
{
    QTRY_VERIFY_WITH_TIMEOUT(m_window->sandboxModel()->rowOf(m_fx.sandboxId()) >= 0, 30000);
    m_window->sandboxPanel()->selectSandbox(m_fx.sandboxId());
    QTRY_COMPARE(m_panel->sandboxId(), m_fx.sandboxId());
    QCOMPARE(m_panel->rootPath(), QString("/home/user"));
    auto* tools = m_window->toolTabs();
    tools->setCurrentWidget(m_panel);
    QCOMPARE(tools->tabText(tools->currentIndex()), QString("Files"));
    // The tree lists /home/user as soon as it is shown.
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->model()->indexForPath("/home/user/notes.py").isValid(),
                             30000);
    QVERIFY(m_panel->model()->indexForPath("/home/user/docs").isValid());

    m_panel->setRootPath("/");
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->model()->indexForPath("/home").isValid(), 30000);
    m_panel->setRootPath("/home/user");
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->model()->indexForPath("/home/user/notes.py").isValid(),
                             30000);
}

void TestFilesPanel::editAndSave()
{
    FileEditorPage* page = openEditor("/home/user/notes.py");
    QVERIFY(page);
    QCOMPARE(page->title(), QString("notes.py"));
    QCOMPARE(page->editor()->toPlainText(), QString("print('hello')\n"));
    QSignalSpy titles(page, &ui::DocumentPage::titleChanged);
    page->editor()->moveCursor(QTextCursor::End);
    QTest::keyClicks(page->editor(), "x = 42");
    QTest::keyClick(page->editor(), Qt::Key_Return);
    QCOMPARE(page->title(), QString("notes.py *"));
    QVERIFY(titles.count() >= 1);
    QSignalSpy saved(page, &FileEditorPage::saved);
    page->editor()->setFocus();
    QTest::keySequence(page->editor(), QKeySequence::Save);
    QVERIFY(saved.wait(30000));
    QCOMPARE(page->title(), QString("notes.py"));
    QCOMPARE(read("/home/user/notes.py"), QByteArray("print('hello')\nx = 42\n"));

    // Opening it again shows the same tab.
    const int before = int(m_window->documentTabs()->documents().size());
    QCOMPARE(openEditor("/home/user/notes.py"), page);
    QCOMPARE(int(m_window->documentTabs()->documents().size()), before);
}

void TestFilesPanel::staleFileWarning()
{
    QVERIFY(write("/home/user/stale.txt", "original\n"));
    FileEditorPage* page = openEditor("/home/user/stale.txt");
    QVERIFY(page);
    QTest::qWait(1100); // a later modification time, whatever the file system's resolution
    QVERIFY(write("/home/user/stale.txt", "changed behind the editor's back\n"));
    replaceText(page, "my version\n");

    // First answer Cancel: nothing is written.
    QString seen;
    answerNextMessageBox("Cancel", &seen);
    page->save();
    QTRY_VERIFY_WITH_TIMEOUT(!page->isSaving(), 30000);
    QVERIFY2(seen.contains("changed in the sandbox"), qPrintable(seen));
    QCOMPARE(read("/home/user/stale.txt"), QByteArray("changed behind the editor's back\n"));
    QVERIFY(page->isModified());
    QVERIFY(page->statusText().startsWith("Not saved"));

    // Then Overwrite: our version is saved, and the next save does not ask again.
    QSignalSpy saved(page, &FileEditorPage::saved);
    answerNextMessageBox("Overwrite", nullptr);
    page->save();
    QVERIFY(saved.wait(30000));
    QCOMPARE(read("/home/user/stale.txt"), QByteArray("my version\n"));
    replaceText(page, "my version 2\n");
    page->save();
    QVERIFY(saved.wait(30000));
    QVERIFY(QApplication::activeModalWidget() == nullptr);
    QCOMPARE(read("/home/user/stale.txt"), QByteArray("my version 2\n"));
}

void TestFilesPanel::closeAsksAboutUnsavedChanges()
{
    QVERIFY(write("/home/user/close.txt", "a\n"));
    FileEditorPage* page = openEditor("/home/user/close.txt");
    QVERIFY(page);
    QPointer<FileEditorPage> guard(page);
    replaceText(page, "b\n");
    ui::DocumentTabs* tabs = m_window->documentTabs();
    answerNextMessageBox("Cancel", nullptr);
    QVERIFY(!tabs->closeDocument(page));
    QVERIFY(guard);
    // Save: the tab closes once the sandbox has the file.
    answerNextMessageBox("Save", nullptr);
    QVERIFY(!tabs->closeDocument(page));
    QTRY_VERIFY_WITH_TIMEOUT(guard.isNull(), 30000);
    QCOMPARE(read("/home/user/close.txt"), QByteArray("b\n"));
}

void TestFilesPanel::opensImage()
{
    QImage image(64, 48, QImage::Format_RGB32);
    image.fill(Qt::darkGreen);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    QVERIFY(image.save(&buffer, "PNG"));
    QVERIFY(write("/home/user/pic.png", png));
    m_panel->openPath("/home/user/pic.png");
    ui::files::ImageViewPage* view = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT((view = qobject_cast<ui::files::ImageViewPage*>(
                                  m_window->documentTabs()->currentDocument())),
                             30000);
    QCOMPARE(view->image().size(), QSize(64, 48));
    QCOMPARE(view->title(), QString("pic.png"));

    // Binary that is no image: a clear message, no tab.
    QVERIFY(write("/home/user/blob.bin", QByteArray("\x00\x01\xff", 3)));
    QSignalSpy problems(m_panel, &FilesPanel::problem);
    const int tabs = int(m_window->documentTabs()->documents().size());
    m_panel->openPath("/home/user/blob.bin");
    QVERIFY(problems.wait(30000));
    QVERIFY(problems.at(0).at(0).toString().contains("not text"));
    QCOMPARE(int(m_window->documentTabs()->documents().size()), tabs);
}

void TestFilesPanel::dropUploads()
{
    const QString local = m_tmp.filePath("dropped.txt");
    QFile f(local);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("dropped from the desktop\n");
    f.close();
    QVERIFY(QDir().mkpath(m_tmp.filePath("dropped-folder/sub")));
    QFile g(m_tmp.filePath("dropped-folder/sub/inner.txt"));
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write("inner\n");
    g.close();

    QMimeData mime;
    mime.setUrls(
        {QUrl::fromLocalFile(local), QUrl::fromLocalFile(m_tmp.filePath("dropped-folder"))});
    QWidget* viewport = m_panel->view()->viewport();
    const QPoint below(5,
                       viewport->height() - 3); // empty space: the shown folder receives the drop
    QDragEnterEvent enter(below, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(below, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(viewport, &drop);
    QVERIFY(drop.isAccepted());
    QCOMPARE(m_panel->transfers()->rowCount() >= 2, true);
    QTRY_COMPARE_WITH_TIMEOUT(m_panel->transfers()->runningCount(), 0, 60000);
    QCOMPARE(read("/home/user/dropped.txt"), QByteArray("dropped from the desktop\n"));
    QCOMPARE(read("/home/user/dropped-folder/sub/inner.txt"), QByteArray("inner\n"));
    // The tree shows them without a manual refresh.
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->model()->indexForPath("/home/user/dropped.txt").isValid(),
                             30000);
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->model()->indexForPath("/home/user/dropped-folder").isValid(),
                             30000);
}

void TestFilesPanel::deleteAsksFirst()
{
    QVERIFY(write("/home/user/victim.txt", "x"));
    m_panel->model()->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->selectPath("/home/user/victim.txt"), 30000);
    QVERIFY(m_panel->deleteAction()->isEnabled());
    QString seen;
    answerNextMessageBox("Cancel", &seen);
    m_panel->deleteAction()->trigger();
    QVERIFY2(seen.contains("/home/user/victim.txt"), qPrintable(seen));
    QTest::qWait(300);
    QCOMPARE(read("/home/user/victim.txt"), QByteArray("x"));

    answerNextMessageBox("Delete", nullptr);
    m_panel->deleteAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!m_panel->model()->indexForPath("/home/user/victim.txt").isValid(),
                             30000);
    ApiWaiter<client::FileEntry> st;
    m_fx.api().statFile(m_fx.sandboxId(), "/home/user/victim.txt", nullptr, st.done());
    QVERIFY(st.wait());
    QCOMPARE(st.error().kind, client::ApiError::Kind::NotFound);
}

void TestFilesPanel::symlinkedFolderActsAsFolder()
{
    ApiWaiter<client::ExecResult> made;
    m_fx.api().execArgv(m_fx.sandboxId(), {"ln", "-sfn", "/home/user/docs", "/home/user/docs-link"},
                        {}, nullptr, made.done());
    QVERIFY(made.wait() && made.ok() && made.value().exitCode == 0);
    // A hidden tree does not list what it expands: show the sandboxes page and the Files tab.
    m_window->documentTabs()->setCurrentIndex(0);
    m_window->toolTabs()->setCurrentWidget(m_panel);
    m_panel->model()->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(m_panel->selectPath("/home/user/docs-link"), 30000);
    const QPersistentModelIndex link =
        m_panel->view()->currentIndex(); // it moves among the folders
    QTRY_VERIFY_WITH_TIMEOUT(link.data(SandboxFileModel::IsDirRole).toBool(), 30000);
    m_panel->view()->expand(link);
    QTRY_VERIFY_WITH_TIMEOUT(
        m_panel->model()->indexForPath("/home/user/docs-link/readme.md").isValid(), 30000);
    QString seen;
    answerNextMessageBox("Cancel", &seen);
    QVERIFY(m_panel->selectPath("/home/user/docs-link"));
    m_panel->deleteAction()->trigger();
    QVERIFY2(seen.contains("the link /home/user/docs-link (what it leads to stays)"),
             qPrintable(seen));
}

QTEST_MAIN(TestFilesPanel)
#include "tst_filespanel.moc"
