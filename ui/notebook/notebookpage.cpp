#include "ui/notebook/notebookpage.h"

#include "notebook/coderunner.h"
#include "notebook/notebookkernel.h"
#include "notebook/recoverywatcher.h"
#include "notebook/runqueue.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/contextselector.h"
#include "ui/notebook/helppanel.h"
#include "ui/notebook/notebookheader.h"
#include "ui/notebook/notebooknavigator.h"
#include "ui/notebook/variableexplorer.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QShortcut>
#include <QSplitter>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using lizard::notebook::ContextChoice;
using lizard::notebook::NotebookKernel;

using namespace lizard::notebook;

namespace {
int g_untitled = 0;
}

NotebookPage::NotebookPage(const QString& sandboxId, CodeRunner* runner, NotebookKernel* kernel,
                           QWidget* parent)
    : DocumentPage(parent), m_sandboxId(sandboxId),
      m_untitled(QStringLiteral("Untitled-%1.ipynb").arg(++g_untitled)),
      m_document(new NotebookDocument(this)), m_file(new NotebookFile(m_document, this)),
      m_runner(runner), m_kernel(kernel), m_queue(new RunQueue(m_document, runner, this)),
      m_header(new NotebookHeader(sandboxId)), m_toolbar(new QToolBar),
      m_cells(new CellListWidget(m_document)), m_help(new HelpPanel(m_cells, runner, m_queue)),
      m_helpAction(new QAction(QStringLiteral("Show contextual help"), this)),
      m_variables(new VariableExplorer(runner, m_queue)),
      m_variablesAction(new QAction(QStringLiteral("Variables"), this))
{
    runner->setParent(this);
    if (kernel)
        kernel->setParent(this);
    m_cells->setRunQueue(m_queue);
    m_cells->setRunner(runner);
    m_document->insertCell(0, CellType::Code);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_header);
    layout->addWidget(m_toolbar);
    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->setObjectName(QStringLiteral("notebookSplitter"));
    splitter->addWidget(m_cells);
    splitter->addWidget(m_help);
    splitter->addWidget(m_variables);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setStretchFactor(2, 1);
    splitter->setCollapsible(0, false);
    layout->addWidget(splitter, 1);
    m_help->hide();
    m_helpAction->setObjectName(QStringLiteral("showContextualHelp"));
    m_helpAction->setCheckable(true);
    m_helpAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+I")));
    m_helpAction->setShortcutContext(Qt::WidgetWithChildrenShortcut); // this tab's, not another's
    m_helpAction->setToolTip(
        QStringLiteral("The kernel's help for the name under the cursor, beside the cells"));
    addAction(m_helpAction);
    connect(m_helpAction, &QAction::toggled, m_help, &QWidget::setVisible);
    m_variables->hide();
    m_variablesAction->setObjectName(QStringLiteral("showVariables"));
    m_variablesAction->setCheckable(true);
    m_variablesAction->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+V")));
    m_variablesAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_variablesAction->setToolTip(
        QStringLiteral("The kernel's variables with their types, sizes and values (Ctrl+Shift+V)"));
    addAction(m_variablesAction);
    connect(m_variablesAction, &QAction::toggled, this, [this, splitter](bool on) {
        m_variables->setVisible(on);
        // Its columns (name, type, shape, size, value) need more room than help's text.
        // By widget, not position: other panels (the table of contents) share the splitter.
        QList<int> sizes = splitter->sizes();
        const int wanted = std::min(560, splitter->width() * 2 / 5);
        const int cells = splitter->indexOf(m_cells), panel = splitter->indexOf(m_variables);
        if (on && cells >= 0 && panel >= 0 && sizes[panel] < wanted) {
            sizes[cells] = std::max(200, sizes[cells] - (wanted - sizes[panel]));
            sizes[panel] = wanted;
            splitter->setSizes(sizes);
        }
    });
    buildToolBar();
    m_navigator = new NotebookNavigator(this);
    setUpSandbox();
    // Like the file editor's: active while this tab is the one shown.
    connect(new QShortcut(QKeySequence::Save, this), &QShortcut::activated, this,
            &NotebookPage::saveInteractive);
    connect(new QShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+S")), this),
            &QShortcut::activated, this, &NotebookPage::saveAsInteractive);

    connect(m_document, &NotebookDocument::dirtyChanged, this, &DocumentPage::titleChanged);
    connect(m_file, &NotebookFile::pathChanged, this, &DocumentPage::titleChanged);
    connect(m_queue, &RunQueue::busyChanged, this, &NotebookPage::updateKernelState);
    if (m_kernel) {
        connect(m_kernel, &NotebookKernel::stateChanged, this, &NotebookPage::updateKernelState);
        connect(m_kernel, &NotebookKernel::contextChanged, this, &NotebookPage::updateContextLabel);
        connect(m_kernel, &NotebookKernel::notice, m_header, &NotebookHeader::setNotice);
        // A restart empties the kernel, another context has other variables.
        connect(m_kernel, &NotebookKernel::stateChanged, m_variables, &VariableExplorer::refresh);
        connect(m_kernel, &NotebookKernel::contextChanged, m_variables, &VariableExplorer::refresh);
        connect(m_kernel, &NotebookKernel::outputCleared, this, [this] {
            if (Cell* cell = m_queue->currentCell())
                cell->clearOutputs();
        });
    }
    updateContextLabel();
    updateKernelState();
    m_document->setClean(); // a fresh notebook has nothing to save yet
}

NotebookPage::~NotebookPage()
{
    // Before the document goes (it is an earlier child): the watcher writes what changed since
    // its last copy, in the background.
    delete m_recovery;
}

void NotebookPage::buildToolBar()
{
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    QAction* run = m_toolbar->addAction(QStringLiteral("▶ Run"), this, [this] {
        m_cells->runCurrent(CellEditor::RunMode::Advance);
    });
    run->setToolTip(QStringLiteral("Run the cell and select the next (Shift+Enter)"));
    run->setObjectName(QStringLiteral("runCell"));
    m_toolbar->addAction(QStringLiteral("Run all"), m_cells, &CellListWidget::runAll)
        ->setObjectName("runAll");
    m_toolbar->addAction(QStringLiteral("■ Interrupt"), this, &NotebookPage::interrupt)
        ->setObjectName("interrupt");
    QAction* restart =
        m_toolbar->addAction(QStringLiteral("↻ Restart"), this, &NotebookPage::restartKernel);
    restart->setObjectName(QStringLiteral("restart"));
    restart->setEnabled(m_kernel);
    m_toolbar->addAction(QStringLiteral("Clear outputs"), this, &NotebookPage::clearOutputs)
        ->setObjectName("clear");
    if (m_kernel) {
        m_toolbar->addSeparator();
        m_contexts = new ContextSelector(m_kernel);
        connect(m_contexts, &ContextSelector::errorOccurred, this, &NotebookPage::showContextError);
        m_toolbar->addWidget(m_contexts);
    }
    m_toolbar->addSeparator();
    m_toolbar->addAction(m_variablesAction);
}

QString NotebookPage::title() const
{
    QString name = m_file->path().isEmpty() ? m_untitled : QFileInfo(m_file->path()).fileName();
    if (!m_branchOf.isEmpty() && m_file->path().isEmpty())
        name = QStringLiteral("%1 (branch of %2)").arg(name, m_branchOf);
    return m_document->isDirty() ? name + u'*' : name;
}

void NotebookPage::setBranchOf(const QString& originalTitle)
{
    m_branchOf = originalTitle;
    m_variables->setBranch(!originalTitle.isEmpty());
    emit titleChanged();
}

QString NotebookPage::toolTip() const
{
    const QString where =
        m_file->path().isEmpty() ? QStringLiteral("not saved yet") : m_file->path();
    const QString branch =
        m_branchOf.isEmpty() ? QString() : QStringLiteral("\nbranch of %1").arg(m_branchOf);
    return QStringLiteral("%1\nsandbox %2%3").arg(where, m_sandboxId, branch);
}

void NotebookPage::enableRecovery(const RecoveryStore& store, int intervalMs)
{
    delete m_recovery;
    m_recovery = new RecoveryWatcher(store, m_file, this);
    m_recovery->setInterval(intervalMs);
    connect(m_recovery, &RecoveryWatcher::writeFailed, m_header,
            [this](const NotebookError& error) {
                m_header->setNotice(QStringLiteral("Autosave failed: %1").arg(error.message()));
            });
}

void NotebookPage::updateKernelState()
{
    QString state = m_kernel ? m_kernel->state() : QStringLiteral("idle");
    if (m_queue->isBusy() && state != u"dead" && state != u"starting")
        state = QStringLiteral("busy");
    else if (!m_queue->isBusy() && state == u"busy")
        state = QStringLiteral("idle");
    m_header->setKernelState(state);
}

void NotebookPage::updateContextLabel()
{
    const ContextChoice c =
        m_kernel ? m_kernel->context() : ContextChoice{QString(), QStringLiteral("python"), {}};
    m_header->setContext(ContextSelector::labelFor(c), c.language);
    m_cells->setCodeLanguage(c.language);
    m_variables->setLanguage(c.language);
    // Say in the file which language its cells are (JupyterLab picks its kernel by this).
    nlohmann::json meta = m_document->metadata();
    const std::string language = c.language.toStdString();
    if (meta.value("language_info", nlohmann::json::object()).value("name", std::string()) !=
        language) {
        meta["language_info"]["name"] = language;
        if (language == "python")
            meta["kernelspec"] = {
                {"name", "python3"}, {"display_name", "Python 3"}, {"language", "python"}};
        m_document->setMetadata(meta);
    }
    if (meta.value("lizard", nlohmann::json::object()).value("sandboxId", std::string()) !=
        m_sandboxId.toStdString()) {
        meta["lizard"]["sandboxId"] = m_sandboxId.toStdString();
        m_document->setMetadata(meta);
    }
}

MaybeError NotebookPage::open(const QString& path)
{
    return m_file->open(path);
}

MaybeError NotebookPage::save()
{
    return m_file->save();
}

MaybeError NotebookPage::saveAs(const QString& path)
{
    return m_file->saveAs(path);
}

void NotebookPage::showError(const QString& title, const QString& text)
{
    QMessageBox::warning(this, title, text);
}

bool NotebookPage::saveInteractive()
{
    if (m_file->path().isEmpty() || m_file->loadFailed())
        return saveAsInteractive();
    if (const MaybeError error = save()) {
        showError(QStringLiteral("Save notebook"), error->message());
        return false;
    }
    return true;
}

bool NotebookPage::saveAsInteractive()
{
    const QString start =
        m_file->path().isEmpty() ? QDir::homePath() + u'/' + m_untitled : m_file->path();
    QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save notebook as"), start,
                                                QStringLiteral("Jupyter notebooks (*.ipynb)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".ipynb"), Qt::CaseInsensitive))
        path += QLatin1String(".ipynb");
    if (const MaybeError error = saveAs(path)) {
        showError(QStringLiteral("Save notebook"), error->message());
        return false;
    }
    return true;
}

bool NotebookPage::confirmClose()
{
    if (m_document->isDirty()) {
        const auto answer = QMessageBox::question(
            this, QStringLiteral("Close notebook"),
            QStringLiteral("%1 has unsaved changes. Save them?").arg(title().chopped(1)),
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !saveInteractive()))
            return false;
    }
    m_queue->interrupt();
    if (m_recovery)
        m_recovery->close(); // closed on purpose: no copy to restore
    return true;
}

void NotebookPage::interrupt()
{
    m_queue->interrupt();
}

void NotebookPage::restartKernel()
{
    if (!m_kernel)
        return;
    m_queue->interrupt();
    m_header->setNotice(QStringLiteral("Restarting the kernel…"));
    QPointer<NotebookPage> self(this);
    m_kernel->restart([self](QString error) {
        if (self)
            self->m_header->setNotice(error.isEmpty()
                                          ? QStringLiteral("Restarted: variables are gone")
                                          : QStringLiteral("Restart failed: %1").arg(error));
    });
}

void NotebookPage::clearOutputs()
{
    for (int i = 0; i < m_document->cellCount(); ++i)
        m_document->cell(i)->clearOutputs();
}

} // namespace lizard::ui::notebook
