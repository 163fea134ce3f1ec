// The Templates tab and the recipe editor against a real lizard-local: the built-in templates
// listed; a recipe checked as one types (the wrong line named and underlined, Build refused
// until it is right); a build with a file from the recipe's folder, its log as it runs and the
// new version in the table; a failing step said plainly with the versions kept; a sandbox
// started from the template has its file; the create dialog offers it; the app never sends a
// file from outside the recipe's folder; Delete. Saves the guide's pictures.
#include "models/sandboxtablemodel.h"
#include "models/templates/templatebuildsession.h"
#include "models/templates/templatelistmodel.h"
#include "support/sandboxfixture.h"
#include "support/themedscreenshot.h"
#include "ui/changes/changespanel.h"
#include "ui/createsandboxdialog.h"
#include "ui/mainwindow.h"
#include "ui/projecttabs.h"
#include "ui/sandboxpanel.h"
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
#include <QTabWidget>
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
    void aSandboxBecomesARecipe();

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
    for (const char* name : {"mine", "from-sandbox"}) {
        ApiWaiter<client::Unit> w;
        m_fx.api().deleteTemplate(name, nullptr, w.done());
        w.wait();
    }
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

// Changes ▸ Recipe from this sandbox…: a sandbox where a package was installed with apt, one
// with pip, and a file written becomes a recipe in a folder (the file saved beside it) that
// names all three; it builds, and a sandbox of that template has the package and the file.
void TestTemplatesView::aSandboxBecomesARecipe()
{
    client::CreateSandboxRequest req;
    req.projectId = m_fx.projectId();
    req.timeoutMs = 600000;
    QString why;
    const QString id = lizard::test::startSandbox(m_fx.api(), req, &why);
    QVERIFY2(!id.isEmpty(), qPrintable(why));
    m_sandboxes << id;
    const QString setup =
        "set -e; export DEBIAN_FRONTEND=noninteractive; apt-get update -q >/dev/null; "
        "apt-get install -y -q figlet >/dev/null; mkdir -p /tmp/w /root/project; "
        "python3 -c \"import zipfile; z = "
        "zipfile.ZipFile('/tmp/w/lizard_hello-1.0-py3-none-any.whl', "
        "'w'); z.writestr('lizard_hello/__init__.py', 'X = 1'); "
        "z.writestr('lizard_hello-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: "
        "lizard-hello\\nVersion: 1.0\\n'); z.writestr('lizard_hello-1.0.dist-info/WHEEL', "
        "'Wheel-Version: 1.0\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'); "
        "z.writestr('lizard_hello-1.0.dist-info/RECORD', ''); z.close()\"; "
        "python3 -m pip install -q --break-system-packages --root-user-action=ignore "
        "/tmp/w/lizard_hello-1.0-py3-none-any.whl; echo 'print(42)' > /root/project/main.py; "
        "echo ready";
    QCOMPARE(exec(id, setup), QStringLiteral("ready"));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->sandboxModel()->rowOf(id) >= 0, 30000);
    m_window->projectTabs()->setCurrentIndex(ui::ProjectTabs::SandboxesTab);
    m_window->sandboxPanel()->selectSandbox(id);
    ui::changes::ChangesPanel* changes = m_window->changesPanel();
    QSignalSpy listed(changes, &ui::changes::ChangesPanel::listed);
    m_window->toolTabs()->setCurrentWidget(changes);
    QTRY_VERIFY_WITH_TIMEOUT(changes->recipeAction()->isEnabled(), 60000);
    QTemporaryDir folder;
    QSignalSpy opened(changes, &ui::changes::ChangesPanel::recipeOpened);
    changes->makeRecipe(folder.path());
    QVERIFY(opened.wait(60000));
    auto* editor = qobject_cast<ui::RecipeDialog*>(opened.first().at(0).value<QDialog*>());
    QVERIFY(editor);
    QString recipe = editor->editor()->toPlainText();
    QVERIFY2(recipe.contains("\nfrom: base\napt:\n  - figlet\npip:\n  - lizard-hello==1.0\n") &&
                 recipe.contains("files:\n  root/project/main.py: /root/project/main.py\n"),
             qPrintable(QString(recipe).replace('\n', " | ")));
    QVERIFY2(!recipe.contains("/var/lib/dpkg") && !recipe.contains("/tmp/w"), qPrintable(recipe));
    QFile saved(folder.filePath("root/project/main.py"));
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(saved.readAll(), QByteArray("print(42)\n"));
    QVERIFY(QFile::exists(folder.filePath("recipe.yaml")));
    QCOMPARE(editor->folderEdit()->text(), QFileInfo(folder.path()).canonicalFilePath());
    QTRY_VERIFY_WITH_TIMEOUT(editor->checkText().startsWith("✓ From base, 3 steps"), 30000);
    lizard::test::saveLightAndDark(editor, "recipe-from-sandbox");

    // A wheel installed from a file has no index to come from again (nor has this machine
    // one): the user takes that line out, as one edits any skeleton.
    editor->editor()->setPlainText(recipe.replace("pip:\n  - lizard-hello==1.0\n", ""));
    editor->nameEdit()->setText("from-sandbox");
    QTRY_VERIFY(editor->buildButton()->isEnabled());
    QSignalSpy ended(editor, &ui::RecipeDialog::buildEnded);
    editor->buildButton()->click();
    QVERIFY(ended.wait(180000));
    QVERIFY2(editor->statusText().startsWith("Built from-sandbox:1"),
             qPrintable(editor->statusText() + "\n" + editor->log()->toPlainText()));
    editor->close();
    client::CreateSandboxRequest again;
    again.projectId = m_fx.projectId();
    again.templateName = "from-sandbox";
    again.timeoutMs = 300000;
    const QString copy = lizard::test::startSandbox(m_fx.api(), again, &why);
    QVERIFY2(!copy.isEmpty(), qPrintable(why));
    m_sandboxes << copy;
    QCOMPARE(exec(copy, "figlet -v >/dev/null && python3 /root/project/main.py"),
             QStringLiteral("42"));
}

QTEST_MAIN(TestTemplatesView)
#include "tst_templatesview.moc"
