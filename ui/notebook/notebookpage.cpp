#include "ui/notebook/notebookpage.h"

#include "notebook/coderunner.h"
#include "notebook/notebookdocument.h"
#include "notebook/notebookfile.h"
#include "notebook/notebookkernel.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/contextselector.h"
#include "ui/notebook/helppanel.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebooknavigator.h"
#include "ui/notebook/variableexplorer.h"
#include "ui/theme/icontheme.h"

#include <QDir>
#include <QFileDialog>
#include <QMessageBox>
#include <QShortcut>
#include <QSplitter>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using lizard::notebook::ContextChoice;
using lizard::notebook::NotebookKernel;

using namespace lizard::notebook;

NotebookPage::NotebookPage(const QString& sandboxId, CodeRunner* runner, NotebookKernel* kernel,
                           QWidget* parent)
    : DocumentPage(parent), m_session(new NotebookSession(sandboxId, runner, kernel, this)),
      m_header(new NotebookHeader(sandboxId)), m_toolbar(new QToolBar),
      m_cells(new CellListWidget(m_session->document())),
      m_help(new HelpPanel(m_cells, runner, m_session->runQueue())),
      m_helpAction(new QAction(IconTheme::icon(QStringLiteral("help-contextual")),
                               QStringLiteral("Show contextual help"), this)),
      m_variablesAction(new QAction(IconTheme::icon(QStringLiteral("lizard-variables")),
                                    QStringLiteral("Variables"), this))
{
    m_cells->setRunQueue(m_session->runQueue());
    m_cells->setRunner(runner);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_header);
    layout->addWidget(m_toolbar);
    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setObjectName(QStringLiteral("notebookSplitter"));
    m_splitter->addWidget(m_cells);
    m_splitter->addWidget(m_help);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setCollapsible(0, false);
    layout->addWidget(m_splitter, 1);
    m_help->hide();
    m_helpAction->setObjectName(QStringLiteral("showContextualHelp"));
    m_helpAction->setCheckable(true);
    m_helpAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+I")));
    m_helpAction->setShortcutContext(Qt::WidgetWithChildrenShortcut); // this tab's, not another's
    m_helpAction->setToolTip(
        QStringLiteral("The kernel's help for the name under the cursor, beside the cells"));
    addAction(m_helpAction);
    connect(m_helpAction, &QAction::toggled, m_help, &QWidget::setVisible);
    m_variablesAction->setObjectName(QStringLiteral("showVariables"));
    m_variablesAction->setCheckable(true);
    m_variablesAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+V")));
    m_variablesAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_variablesAction->setToolTip(
        QStringLiteral("The kernel's variables with their types, sizes and values (Ctrl+Shift+V)"));
    addAction(m_variablesAction);
    connect(m_variablesAction, &QAction::toggled, this, [this](bool on) {
        if (!on && !m_variables)
            return;
        variableExplorer()->setVisible(on);
        // Its columns (name, type, shape, size, value) need more room than help's text.
        // By widget, not position: other panels (the table of contents) share the splitter.
        QList<int> sizes = m_splitter->sizes();
        const int wanted = std::min(560, m_splitter->width() * 2 / 5);
        const int cells = m_splitter->indexOf(m_cells), panel = m_splitter->indexOf(m_variables);
        if (on && cells >= 0 && panel >= 0 && sizes[panel] < wanted) {
            sizes[cells] = std::max(200, sizes[cells] - (wanted - sizes[panel]));
            sizes[panel] = wanted;
            m_splitter->setSizes(sizes);
        }
    });
    buildToolBar();
    m_navigator = new NotebookNavigator(this);
    setUpSandboxActions();
    // Like the file editor's: active while this tab is the one shown.
    connect(new QShortcut(QKeySequence::Save, this), &QShortcut::activated, this,
            &NotebookPage::saveInteractive);
    connect(new QShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+S")), this),
            &QShortcut::activated, this, &NotebookPage::saveAsInteractive);

    connect(m_session, &NotebookSession::titleChanged, this, &DocumentPage::titleChanged);
    connect(m_session, &NotebookSession::kernelStateChanged, m_header,
            &NotebookHeader::setKernelState);
    connect(m_session, &NotebookSession::contextChanged, this, &NotebookPage::updateContextLabel);
    connect(m_session, &NotebookSession::notice, m_header, &NotebookHeader::setNotice);
    connect(m_session, &NotebookSession::sandboxChanged, this, &NotebookPage::showSandbox);
    updateContextLabel();
    m_header->setKernelState(m_session->kernelState());
}

NotebookPage::~NotebookPage() = default;

VariableExplorer* NotebookPage::variableExplorer()
{
    if (m_variables)
        return m_variables;
    // Made when first shown (or asked for): most notebooks never show it, and a page opens
    // sooner without its table, filter and detail view.
    m_variables = new VariableExplorer(m_session->runner(), m_session->runQueue());
    m_variables->hide();
    m_variables->setLanguage(m_session->context().language);
    m_variables->setBranch(!m_session->branchOf().isEmpty());
    if (NotebookKernel* k = m_session->kernel()) {
        // A restart empties the kernel, another context has other variables.
        connect(k, &NotebookKernel::stateChanged, m_variables, &VariableExplorer::refresh);
        connect(k, &NotebookKernel::contextChanged, m_variables, &VariableExplorer::refresh);
    }
    m_splitter->addWidget(m_variables);
    m_splitter->setStretchFactor(m_splitter->indexOf(m_variables), 1);
    return m_variables;
}

void NotebookPage::buildToolBar()
{
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolbar->setIconSize(QSize(16, 16));
    QAction* run = m_toolbar->addAction(
        IconTheme::icon(QStringLiteral("media-playback-start")), QStringLiteral("Run"), this,
        [this] { m_cells->runCurrent(CellEditor::RunMode::Advance); });
    run->setToolTip(QStringLiteral("Run the cell and select the next (Shift+Enter)"));
    run->setObjectName(QStringLiteral("runCell"));
    m_toolbar
        ->addAction(IconTheme::icon(QStringLiteral("lizard-run-all")), QStringLiteral("Run all"),
                    m_cells, &CellListWidget::runAll)
        ->setObjectName("runAll");
    m_toolbar
        ->addAction(IconTheme::icon(QStringLiteral("media-playback-stop")),
                    QStringLiteral("Interrupt"), m_session, &NotebookSession::interrupt)
        ->setObjectName("interrupt");
    QAction* restart =
        m_toolbar->addAction(IconTheme::icon(QStringLiteral("system-reboot")),
                             QStringLiteral("Restart"), m_session, &NotebookSession::restartKernel);
    restart->setObjectName(QStringLiteral("restart"));
    restart->setEnabled(m_session->kernel());
    m_toolbar
        ->addAction(IconTheme::icon(QStringLiteral("edit-clear")), QStringLiteral("Clear outputs"),
                    m_session, &NotebookSession::clearOutputs)
        ->setObjectName("clear");
    if (NotebookKernel* kernel = m_session->kernel()) {
        m_toolbar->addSeparator();
        m_contexts = new ContextSelector(kernel);
        connect(m_contexts, &ContextSelector::errorOccurred, m_session,
                &NotebookSession::reportContextError);
        m_toolbar->addWidget(m_contexts);
    }
    m_toolbar->addSeparator();
    m_toolbar->addAction(m_variablesAction);
}

QString NotebookPage::title() const
{
    return m_session->displayName() + (document()->isDirty() ? QStringLiteral("*") : QString());
}

void NotebookPage::setBranchOf(const QString& originalTitle)
{
    m_session->setBranchOf(originalTitle);
    if (m_variables)
        m_variables->setBranch(!originalTitle.isEmpty());
}

QString NotebookPage::toolTip() const
{
    const QString path = m_session->file()->path();
    const QString where = path.isEmpty() ? QStringLiteral("not saved yet") : path;
    const QString branch = m_session->branchOf().isEmpty()
                               ? QString()
                               : QStringLiteral("\nbranch of %1").arg(m_session->branchOf());
    return QStringLiteral("%1\nsandbox %2%3").arg(where, sandboxId(), branch);
}

void NotebookPage::updateContextLabel()
{
    const ContextChoice c = m_session->context();
    m_header->setContext(ContextSelector::labelFor(c), c.language);
    m_cells->setCodeLanguage(c.language);
    if (m_variables)
        m_variables->setLanguage(c.language);
}

void NotebookPage::showError(const QString& title, const QString& text)
{
    QMessageBox::warning(this, title, text);
}

bool NotebookPage::saveInteractive()
{
    NotebookFile* file = m_session->file();
    if (file->path().isEmpty() || file->loadFailed())
        return saveAsInteractive();
    if (const MaybeError error = m_session->save()) {
        showError(QStringLiteral("Save notebook"), error->message());
        return false;
    }
    return true;
}

bool NotebookPage::saveAsInteractive()
{
    const QString current = m_session->file()->path();
    const QString start =
        current.isEmpty() ? QDir::homePath() + u'/' + m_session->untitledName() : current;
    QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save notebook as"), start,
                                                QStringLiteral("Jupyter notebooks (*.ipynb)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".ipynb"), Qt::CaseInsensitive))
        path += QLatin1String(".ipynb");
    if (const MaybeError error = m_session->saveAs(path)) {
        showError(QStringLiteral("Save notebook"), error->message());
        return false;
    }
    return true;
}

bool NotebookPage::confirmClose()
{
    if (document()->isDirty()) {
        const auto answer = QMessageBox::question(
            this, QStringLiteral("Close notebook"),
            QStringLiteral("%1 has unsaved changes. Save them?").arg(title().chopped(1)),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !saveInteractive()))
            return false;
    }
    m_session->close(); // on purpose: no copy to restore
    return true;
}

} // namespace lizard::ui::notebook
