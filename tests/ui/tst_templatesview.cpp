// The Templates tab and the recipe editor against a real lizard-local: the built-in templates
// listed; a recipe checked as one types (the wrong line named and underlined, Build refused
// until it is right); a build with a file from the recipe's folder, its log as it runs and the
// new version in the table; a failing step said plainly with the versions kept; a sandbox
// started from the template has its file; the create dialog offers it; the app never sends a
// file from outside the recipe's folder; Delete. Saves the guide's pictures.
#include "models/templates/templatebuildsession.h"
#include "models/templates/templatelistmodel.h"
#include "support/sandboxfixture.h"
#include "support/themedscreenshot.h"
#include "ui/createsandboxdialog.h"
#include "ui/mainwindow.h"
#include "ui/projecttabs.h"
#include "ui/templates/recipedialog.h"
#include "ui/templates/templatesview.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace lizard;
using lizard::test::ApiWaiter;
namespace TemplateColumn = models::TemplateColumn;
using models::TemplateListModel;

class TestTemplatesView : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }

    void listsTheBuiltInTemplates();
    void theRecipeIsCheckedAsOneTypes();
    void aBuildShowsItsLogAndTheNewVersion();
    void aFailingStepIsSaidPlainly();
    void aSandboxFromTheTemplateHasItsFile();
    void theCreateDialogOffersIt();
    void noFileFromOutsideTheFolderIsSent();
    void deleteRemovesIt();

private:
    QString cell(const QString& name, int column) const;
    QString exec(const QString& id, const QString& cmd);
    static void setRecipe(ui::RecipeDialog* d, const QString& text);

    lizard::test::SandboxFixture m_fx;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::TemplatesView* m_view = nullptr;
    TemplateListModel* m_model = nullptr;
    QTemporaryDir m_folder;
    QStringList m_sandboxes;
};

void TestTemplatesView::initTestCase()
{
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
    QVERIFY(m_folder.isValid());
    QVERIFY(QDir(m_folder.path()).mkpath("data"));
    QFile f(m_folder.filePath("data/hello.txt"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("from the recipe's folder\n");
    f.close();
    m_window = std::make_unique<ui::MainWindow>();
    m_window->setBackend(&m_fx.api(), "test", {});
    m_window->resize(1200, 760);
    m_window->show();
    ui::ProjectTabs* tabs = m_window->projectTabs();
    tabs->setCurrentIndex(ui::ProjectTabs::TemplatesTab);
    QCOMPARE(tabs->tabText(tabs->currentIndex()), QStringLiteral("Templates"));
    m_view = tabs->templatesView();
    QTRY_VERIFY_WITH_TIMEOUT(tabs->templateModel() != nullptr, 30000);
    m_model = tabs->templateModel();
}

void TestTemplatesView::cleanupTestCase()
{
    m_window.reset();
    for (const QString& id : m_sandboxes)
        lizard::test::killSandbox(m_fx.api(), id);
    ApiWaiter<client::Unit> w;
    m_fx.api().deleteTemplate("mine", nullptr, w.done());
    w.wait();
    m_fx.stop();
}

QString TestTemplatesView::cell(const QString& name, int column) const
{
    const int row = m_model->rowOf(name);
    return row < 0 ? QStringLiteral("<no row>") : m_model->index(row, column).data().toString();
}

QString TestTemplatesView::exec(const QString& id, const QString& cmd)
{
    ApiWaiter<client::ExecResult> w;
    client::ExecOptions opts;
    opts.timeoutMs = 60000;
    m_fx.api().exec(id, cmd, opts, nullptr, w.done());
    if (!w.wait() || !w.ok())
        return QString::fromUtf8(w.why());
    return w.value().stdoutText.trimmed();
}

void TestTemplatesView::setRecipe(ui::RecipeDialog* d, const QString& text)
{
    d->editor()->selectAll();
    QTest::keyClicks(d->editor(), "x"); // typed, as a user would, then the text pasted
    d->editor()->setPlainText(text);
}

void TestTemplatesView::listsTheBuiltInTemplates()
{
    QTRY_VERIFY_WITH_TIMEOUT(m_model->rowOf("interpreter") >= 0, 30000);
    QCOMPARE(cell("base", TemplateColumn::Kind), QStringLiteral("built in"));
    QCOMPARE(cell("desktop", TemplateColumn::Latest), QStringLiteral("—"));
    m_view->selectTemplate("base");
    QVERIFY(m_view->createAction()->isEnabled());
    QVERIFY(!m_view->editAction()->isEnabled()); // a built-in one has no recipe
    QVERIFY(!m_view->deleteAction()->isEnabled());
    QVERIFY(m_view->newAction()->isEnabled());
}

void TestTemplatesView::theRecipeIsCheckedAsOneTypes()
{
    ui::RecipeDialog* d = m_view->openEditor({});
    QVERIFY(d);
    QTRY_VERIFY_WITH_TIMEOUT(d->checkText().startsWith("✓"), 30000); // the sample is right
    QVERIFY(!d->buildButton()->isEnabled());                         // no name yet
    QTest::keyClicks(d->nameEdit(), "Mine!"); // the validator keeps what a name may hold
    QCOMPARE(d->nameEdit()->text(), QStringLiteral("ine"));
    d->nameEdit()->setText("mine");
    QTRY_VERIFY(d->buildButton()->isEnabled());
    setRecipe(d, "from: base\nrun: [echo one\n");
    QTRY_VERIFY_WITH_TIMEOUT(d->checkText().startsWith("✗ line 2:"), 30000);
    QCOMPARE(d->errorLine(), 2);
    QVERIFY(!d->buildButton()->isEnabled());
    setRecipe(d, "from: nothing-here\n");
    QTRY_VERIFY_WITH_TIMEOUT(d->checkText().contains("template nothing-here not found"), 30000);
    setRecipe(d, "from: base\nrun: [echo one, echo two]\n");
    QTRY_VERIFY_WITH_TIMEOUT(d->checkText() == "✓ From base, 2 steps: run, run", 30000);
    QCOMPARE(d->errorLine(), 0);
    QVERIFY2(d->buildButton()->isEnabled(),
             qPrintable(d->buildButton()->toolTip() + " | " + d->nameEdit()->text()));
    d->close();
}

void TestTemplatesView::aBuildShowsItsLogAndTheNewVersion()
{
    ui::RecipeDialog* d = m_view->openEditor({});
    d->nameEdit()->setText("mine");
    d->folderEdit()->setText(m_folder.path());
    setRecipe(d, "# what an agent of mine needs\n"
                 "from: base\n"
                 "files:\n"
                 "  data/hello.txt: /opt/hello.txt\n"
                 "env:\n"
                 "  GREETING: hi\n"
                 "run:\n"
                 "  - echo \"$GREETING, built\" > /opt/built.txt; cat /opt/built.txt\n");
    QTRY_VERIFY_WITH_TIMEOUT(d->checkText().contains("Files sent from the folder: data/hello.txt"),
                             30000);
    QSignalSpy ended(d, &ui::RecipeDialog::buildEnded);
    QTest::mouseClick(d->buildButton(), Qt::LeftButton);
    QVERIFY(ended.wait(120000));
    QVERIFY2(d->statusText().startsWith("Built mine:1 in "), qPrintable(d->statusText()));
    const QString log = d->log()->toPlainText();
    QVERIFY2(log.contains("step 1/2: files (line 3)") &&
                 log.contains("data/hello.txt → /opt/hello.txt") && log.contains("hi, built") &&
                 log.contains("built mine:1"),
             qPrintable(log));
    lizard::test::saveLightAndDark(d, "recipe-editor");
    d->close();
    QTRY_COMPARE_WITH_TIMEOUT(cell("mine", TemplateColumn::Latest), QStringLiteral("mine:1"),
                              30000);
    QCOMPARE(cell("mine", TemplateColumn::Kind), QStringLiteral("recipe, from base"));
    QVERIFY2(cell("mine", TemplateColumn::LastBuild).startsWith("built version 1, "),
             qPrintable(cell("mine", TemplateColumn::LastBuild)));
    m_view->selectTemplate("mine");
    QVERIFY(m_view->editAction()->isEnabled() && m_view->deleteAction()->isEnabled());
    lizard::test::saveLightAndDark(m_window.get(), "templates");
}

void TestTemplatesView::aFailingStepIsSaidPlainly()
{
    m_view->selectTemplate("mine");
    ui::RecipeDialog* d = m_view->openEditor("mine");
    QVERIFY(d->nameEdit()->isReadOnly());
    QVERIFY(d->editor()->toPlainText().contains("data/hello.txt")); // the latest build's recipe
    setRecipe(d, "from: base\nrun:\n  - echo fine\n  - echo 'no such package' >&2; exit 3\n");
    QTRY_VERIFY_WITH_TIMEOUT(d->buildButton()->isEnabled(), 30000);
    QSignalSpy ended(d, &ui::RecipeDialog::buildEnded);
    d->buildButton()->click();
    QVERIFY(ended.wait(120000));
    QVERIFY2(d->statusText().startsWith("Build failed at step 2 of 2: run (line 4) failed with "
                                        "exit code 3"),
             qPrintable(d->statusText()));
    QVERIFY(d->statusText().endsWith("The template's versions are as they were."));
    QVERIFY(d->log()->toPlainText().contains("no such package"));
    d->close();
    QTRY_VERIFY_WITH_TIMEOUT(cell("mine", TemplateColumn::LastBuild).startsWith("failed at step 2"),
                             30000);
    QCOMPARE(cell("mine", TemplateColumn::Latest), QStringLiteral("mine:1"));
    // Build log… shows that build again, from its file.
    m_view->selectTemplate("mine");
    m_view->logAction()->trigger();
    auto* shown = m_view->findChildren<ui::RecipeDialog*>().last();
    QTRY_VERIFY_WITH_TIMEOUT(shown->log()->toPlainText().contains("no such package"), 30000);
    QTRY_VERIFY(shown->statusText().startsWith("Build failed"));
    shown->close();
}

void TestTemplatesView::aSandboxFromTheTemplateHasItsFile()
{
    m_view->selectTemplate("mine");
    QSignalSpy created(m_view, &ui::TemplatesView::sandboxCreated);
    m_view->createAction()->trigger();
    QVERIFY(created.wait(60000));
    const auto info = created.first().at(0).value<client::SandboxInfo>();
    m_sandboxes << info.sandboxId;
    QCOMPARE(m_window->projectTabs()->currentIndex(), int(ui::ProjectTabs::SandboxesTab));
    QCOMPARE(exec(info.sandboxId, "cat /opt/hello.txt /opt/built.txt; echo $GREETING"),
             QStringLiteral("from the recipe's folder\nhi, built\nhi"));
    m_window->projectTabs()->setCurrentIndex(ui::ProjectTabs::TemplatesTab);
}

void TestTemplatesView::theCreateDialogOffersIt()
{
    ui::CreateSandboxDialog dialog(m_window->sandboxActions(), m_fx.projectId());
    QTRY_VERIFY_WITH_TIMEOUT(dialog.templateBox()->findData("mine") >= 0, 30000);
    const int at = dialog.templateBox()->findData("mine");
    QCOMPARE(dialog.templateBox()->itemText(at),
             QStringLiteral("mine — yours, version 1 (from base)"));
    QVERIFY(dialog.templateBox()->findData("interpreter") < at); // after the built-in ones
}

void TestTemplatesView::noFileFromOutsideTheFolderIsSent()
{
    using models::TemplateBuildSession;
    QTemporaryDir outside;
    QFile secret(outside.filePath("secret"));
    QVERIFY(secret.open(QIODevice::WriteOnly));
    secret.write("not for sandboxes");
    secret.close();
    QVERIFY(QFile::link(outside.filePath("secret"), m_folder.filePath("link-out")));
    const auto viaLink = TemplateBuildSession::readFiles(m_folder.path(), {"link-out"});
    QVERIFY(!viaLink);
    QVERIFY2(viaLink.error().message.contains("leads out of the recipe's folder"),
             qPrintable(viaLink.error().message));
    QVERIFY(!TemplateBuildSession::readFiles(m_folder.path(), {"../secret"}));
    QVERIFY(!TemplateBuildSession::readFiles({}, {"data/hello.txt"})); // no folder chosen
    const auto inside = TemplateBuildSession::readFiles(m_folder.path(), {"data/hello.txt"});
    QVERIFY(inside); // control
    QCOMPARE(inside.value().value("data/hello.txt"), QByteArray("from the recipe's folder\n"));
}

void TestTemplatesView::deleteRemovesIt()
{
    m_view->selectTemplate("mine");
    m_view->deleteTemplate("mine");
    QTRY_VERIFY_WITH_TIMEOUT(m_model->rowOf("mine") < 0, 30000);
    QVERIFY(m_model->rowOf("base") >= 0);
}

QTEST_MAIN(TestTemplatesView)
#include "tst_templatesview.moc"
