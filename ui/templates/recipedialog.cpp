#include "ui/templates/recipedialog.h"

#include "models/templates/templatebuildsession.h"
#include "ui/templates/recipehighlighter.h"

#include <QDialogButtonBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QScrollBar>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

namespace lizard::ui {

namespace {

QString durationText(qint64 ms)
{
    return ms < 1000 ? QStringLiteral("%1 ms").arg(ms)
                     : QStringLiteral("%1 s").arg(double(ms) / 1000.0, 0, 'f', 1);
}

} // namespace

QString RecipeDialog::sampleRecipe()
{
    return QStringLiteral("# Each key is a step, run in this order; a rebuild starts at the first "
                          "changed one.\n"
                          "from: interpreter\n"
                          "apt: [jq]\n"
                          "env:\n"
                          "  DATA_DIR: /home/user/data\n"
                          "run:\n"
                          "  - mkdir -p \"$DATA_DIR\"\n");
}

RecipeDialog::RecipeDialog(client::LizardApi* api, const QString& name, const QString& recipe,
                           QWidget* parent)
    : QDialog(parent), m_session(new models::TemplateBuildSession(api, this)),
      m_name(new QLineEdit), m_folder(new QLineEdit), m_editor(new QPlainTextEdit),
      m_check(new QLabel), m_log(new QPlainTextEdit), m_status(new QLabel),
      m_build(new QPushButton(QStringLiteral("Build"))), m_checkTimer(new QTimer(this))
{
    setObjectName(QStringLiteral("recipeDialog"));
    setWindowTitle(name.isEmpty() ? QStringLiteral("New template")
                                  : QStringLiteral("Template %1").arg(name));
    resize(820, 680);
    m_name->setObjectName(QStringLiteral("templateName"));
    m_name->setPlaceholderText(QStringLiteral("my-template (lowercase letters, digits, dashes)"));
    m_name->setValidator(new QRegularExpressionValidator(
        QRegularExpression(QStringLiteral("[a-z0-9][a-z0-9-]{0,62}")), m_name));
    m_name->setText(name);
    m_name->setReadOnly(!name.isEmpty());
    m_folder->setObjectName(QStringLiteral("recipeFolder"));
    m_folder->setPlaceholderText(QStringLiteral("the folder the recipe's files: come from"));
    auto* browse = new QPushButton(QStringLiteral("Browse…"));
    auto* open = new QPushButton(QStringLiteral("Open recipe file…"));
    auto* folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);
    auto* form = new QFormLayout;
    form->addRow(QStringLiteral("Name"), m_name);
    form->addRow(QStringLiteral("Files from"), folderRow);

    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_editor->setObjectName(QStringLiteral("recipeEditor"));
    m_editor->setFont(mono);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setTabChangesFocus(false);
    m_highlighter = new RecipeHighlighter(m_editor->document());
    m_editor->setPlainText(recipe.isEmpty() ? sampleRecipe() : recipe);
    m_checkedText = m_editor->toPlainText();
    m_check->setObjectName(QStringLiteral("recipeCheck"));
    m_check->setWordWrap(true);
    m_check->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_log->setObjectName(QStringLiteral("buildLog"));
    m_log->setFont(mono);
    m_log->setReadOnly(true);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setMaximumBlockCount(20000);
    m_log->setPlaceholderText(QStringLiteral("The build's log appears here as it runs."));
    m_status->setObjectName(QStringLiteral("buildStatus"));
    m_status->setWordWrap(true);

    auto* top = new QWidget;
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_editor, 1);
    topLayout->addWidget(m_check);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(top);
    split->addWidget(m_log);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    m_build->setObjectName(QStringLiteral("buildTemplate"));
    m_build->setDefault(false);
    m_build->setAutoDefault(false);
    buttons->addButton(m_build, QDialogButtonBox::ActionRole);
    buttons->addButton(open, QDialogButtonBox::ActionRole);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    m_checkTimer->setSingleShot(true);
    m_checkTimer->setInterval(300);
    connect(m_checkTimer, &QTimer::timeout, this,
            [this] { m_session->check(m_editor->toPlainText()); });
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        // Underlining a line changes formats, not text: that needs no new check.
        if (m_editor->toPlainText() == m_checkedText)
            return;
        m_checkedText = m_editor->toPlainText();
        m_recipeOk = false;
        updateBuildButton();
        m_checkTimer->start();
    });
    connect(m_name, &QLineEdit::textChanged, this, &RecipeDialog::updateBuildButton);
    connect(m_session, &models::TemplateBuildSession::checked, this, &RecipeDialog::onChecked);
    connect(m_session, &models::TemplateBuildSession::checkFailed, this,
            &RecipeDialog::onCheckFailed);
    connect(m_session, &models::TemplateBuildSession::started, this,
            [this](const client::TemplateBuild& b) {
                setStatus(QStringLiteral("Building %1 (%2 steps)…").arg(b.name).arg(b.steps),
                          false);
                emit buildStarted(b.name);
            });
    connect(m_session, &models::TemplateBuildSession::lines, this, [this](const QStringList& l) {
        QScrollBar* bar = m_log->verticalScrollBar();
        const bool atEnd = bar->value() == bar->maximum();
        for (const QString& line : l)
            m_log->appendPlainText(line);
        if (atEnd)
            bar->setValue(bar->maximum());
    });
    connect(m_session, &models::TemplateBuildSession::ended, this, &RecipeDialog::onEnded);
    connect(m_session, &models::TemplateBuildSession::failed, this, [this](const QString& why) {
        setStatus(QStringLiteral("Could not build: %1").arg(why), true);
        updateBuildButton();
    });
    connect(m_build, &QPushButton::clicked, this, &RecipeDialog::startBuild);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString dir = QFileDialog::getExistingDirectory(
            this, QStringLiteral("The folder the recipe's files come from"), m_folder->text());
        if (!dir.isEmpty())
            m_folder->setText(dir);
    });
    connect(open, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, QStringLiteral("Open a recipe"), m_folder->text(),
                                         QStringLiteral("Recipes (*.yaml *.yml);;All files (*)"));
        if (!path.isEmpty())
            openRecipeFile(path);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_check->setText(QStringLiteral("Checking…"));
    m_session->check(m_editor->toPlainText());
    updateBuildButton();
}

bool RecipeDialog::openRecipeFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        setStatus(QStringLiteral("Cannot read %1: %2").arg(path, f.errorString()), true);
        return false;
    }
    m_editor->setPlainText(QString::fromUtf8(f.readAll()));
    m_folder->setText(QFileInfo(path).absolutePath());
    if (m_name->text().isEmpty() && !m_name->isReadOnly())
        m_name->setText(QFileInfo(path).completeBaseName().toLower().replace(u'_', u'-'));
    return true;
}

QString RecipeDialog::checkText() const
{
    return m_check->text();
}

QString RecipeDialog::statusText() const
{
    return m_status->text();
}

int RecipeDialog::errorLine() const
{
    return m_highlighter->errorLine();
}

void RecipeDialog::onChecked(const client::RecipeCheck& check)
{
    m_recipeOk = true;
    m_highlighter->setErrorLine(0);
    QStringList kinds;
    for (const auto& s : check.steps)
        kinds << s.kind;
    QString text = check.steps.isEmpty()
                       ? QStringLiteral("✓ No steps: the template is %1 with the recipe's env.")
                             .arg(check.from)
                       : QStringLiteral("✓ From %1, %2 step%3: %4")
                             .arg(check.from)
                             .arg(check.steps.size())
                             .arg(check.steps.size() == 1 ? "" : "s")
                             .arg(kinds.join(QStringLiteral(", ")));
    if (!check.fileSources.isEmpty())
        text += QStringLiteral(". Files sent from the folder: %1")
                    .arg(check.fileSources.join(QStringLiteral(", ")));
    m_check->setStyleSheet({});
    m_check->setText(text);
    updateBuildButton();
}

void RecipeDialog::onCheckFailed(int line, const QString& message)
{
    m_recipeOk = false;
    m_highlighter->setErrorLine(line);
    m_check->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_check->setText(QStringLiteral("✗ %1").arg(message));
    updateBuildButton();
}

void RecipeDialog::startBuild()
{
    m_log->clear();
    setStatus(QStringLiteral("Starting the build…"), false);
    m_session->build(m_name->text(), m_editor->toPlainText(), m_folder->text());
    updateBuildButton();
}

void RecipeDialog::followBuild(const QString& buildId)
{
    m_log->clear();
    setStatus(QStringLiteral("Reading the build's log…"), false);
    m_session->follow(m_name->text(), buildId);
    updateBuildButton();
}

void RecipeDialog::onEnded(const client::TemplateBuild& b)
{
    const QString took = durationText(b.durationMs);
    const QString cached =
        b.cachedSteps > 0
            ? QStringLiteral(", %1 of %2 steps from the cache").arg(b.cachedSteps).arg(b.steps)
            : QString();
    if (b.status == QLatin1String("succeeded")) {
        setStatus(b.version ? QStringLiteral("Built %1:%2 in %3%4.")
                                  .arg(b.name)
                                  .arg(*b.version)
                                  .arg(took, cached)
                            : QStringLiteral("Nothing changed: %1 is as its latest version (%2%3).")
                                  .arg(b.name, took, cached),
                  false);
    } else {
        const QString step =
            b.failedStep ? QStringLiteral(" at step %1 of %2").arg(*b.failedStep + 1).arg(b.steps)
                         : QString();
        setStatus(QStringLiteral("Build %1%2: %3. The template's versions are as they were.")
                      .arg(b.status, step, b.error),
                  true);
    }
    updateBuildButton();
    emit buildEnded(b);
}

void RecipeDialog::setStatus(const QString& text, bool error)
{
    m_status->setStyleSheet(error ? QStringLiteral("color: #c62828;") : QString());
    m_status->setText(text);
}

void RecipeDialog::updateBuildButton()
{
    const bool nameOk = m_name->hasAcceptableInput();
    m_build->setEnabled(m_recipeOk && nameOk && !m_session->busy());
    m_build->setToolTip(!nameOk       ? QStringLiteral("Give the template a name first")
                        : !m_recipeOk ? QStringLiteral("The recipe has an error (see below it)")
                                      : QString());
}

} // namespace lizard::ui
