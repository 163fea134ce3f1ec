#include "ui/notebook/notebookcontroller.h"

#include "client/coderun/codeinterpreter.h"
#include "models/sandboxtablemodel.h"
#include "notebook/clientcoderunner.h"
#include "notebook/clientnotebookkernel.h"
#include "notebook/notebookforker.h"
#include "notebook/notebooklauncher.h"
#include "ui/documenttabs.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/notebooknavigator.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/sandboxswitcher.h"
#include "ui/notebook/typeahead.h"
#include "ui/progressstrip.h"
#include "ui/sandboxpanel.h"
#include "ui/theme/icontheme.h"
#include "ui/workbench.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QTimer>
#include <QToolBar>

namespace lizard::ui::notebook {

using lizard::notebook::ClientNotebookKernel;
using lizard::notebook::NotebookLauncher;

using namespace lizard::notebook;

NotebookController::NotebookController(Workbench* window, RecoveryStore store, QObject* parent)
    : QObject(parent), m_window(window), m_store(std::move(store)),
      m_openNotebook(new QAction(QStringLiteral("Open notebook"), this)),
      m_newNotebook(new QAction(QStringLiteral("New notebook"), this)),
      m_switcher(new SandboxSwitcher(window, this))
{
    m_newNotebook->setObjectName(QStringLiteral("newNotebook"));
    m_newNotebook->setIcon(IconTheme::icon(QStringLiteral("lizard-notebook-new")));
    m_newNotebook->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+N")));
    m_newNotebook->setToolTip(
        QStringLiteral("A fresh Python sandbox in this project with a notebook on it"));
    connect(m_newNotebook, &QAction::triggered, this, &NotebookController::newNotebook);
    window->setNewNotebookAction(m_newNotebook);
    m_openNotebook->setIcon(IconTheme::icon(QStringLiteral("lizard-notebook")));
    m_openNotebook->setToolTip(QStringLiteral("A new notebook running in the selected sandbox"));
    connect(m_openNotebook, &QAction::triggered, this,
            [this] { openNotebook(m_window->currentSandboxId()); });
    window->addSandboxAction(m_openNotebook);

    auto* menu = new QMenu(QStringLiteral("&Notebook"), window->window());
    window->addMenu(menu);
    menu->addAction(m_newNotebook);
    menu->addAction(m_openNotebook);
    menu->addAction(IconTheme::icon(QStringLiteral("document-open")), QStringLiteral("&Open…"),
                    this, &NotebookController::openFileInteractive);
    menu->addSeparator();
    QAction* save = menu->addAction(IconTheme::icon(QStringLiteral("document-save")),
                                    QStringLiteral("&Save  (Ctrl+S)"), this, [this] {
                                        if (NotebookPage* page = currentPage())
                                            page->saveInteractive();
                                    });
    QAction* saveAs = menu->addAction(IconTheme::icon(QStringLiteral("document-save-as")),
                                      QStringLiteral("Save &as…  (Ctrl+Shift+S)"), this, [this] {
                                          if (NotebookPage* page = currentPage())
                                              page->saveAsInteractive();
                                      });
    QMenu* exportMenu = menu->addMenu(IconTheme::icon(QStringLiteral("document-export")),
                                      QStringLiteral("&Export"));
    exportMenu->setObjectName(QStringLiteral("menuExport"));
    exportMenu
        ->addAction(IconTheme::icon(QStringLiteral("text-html")), QStringLiteral("&HTML…"), this,
                    [this] {
                        if (NotebookPage* page = currentPage())
                            page->navigator()->exportInteractive(ExportFormat::Html);
                    })
        ->setObjectName(QStringLiteral("exportHtml"));
    exportMenu
        ->addAction(IconTheme::icon(QStringLiteral("text-x-python")),
                    QStringLiteral("&Python script…"), this,
                    [this] {
                        if (NotebookPage* page = currentPage())
                            page->navigator()->exportInteractive(ExportFormat::PythonScript);
                    })
        ->setObjectName(QStringLiteral("exportPython"));
    menu->addSeparator();
    QAction* fork = menu->addAction(IconTheme::icon(QStringLiteral("lizard-fork")),
                                    QStringLiteral("&Fork notebook"), this, [this] {
                                        if (NotebookPage* page = currentPage())
                                            forkNotebook(page);
                                    });
    QAction* attach = menu->addAction(IconTheme::icon(QStringLiteral("insert-link")),
                                      QStringLiteral("Attach to &sandbox…"), this, [this] {
                                          if (NotebookPage* page = currentPage())
                                              page->attachAction()->trigger();
                                      });
    attach->setObjectName(QStringLiteral("menuAttachToSandbox"));
    QAction* runOnNew = menu->addAction(IconTheme::icon(QStringLiteral("lizard-run-new")),
                                        QStringLiteral("Run on a &new sandbox"), this, [this] {
                                            if (NotebookPage* page = currentPage())
                                                page->runOnNewAction()->trigger();
                                        });
    runOnNew->setObjectName(QStringLiteral("menuRunOnNewSandbox"));
    menu->addSeparator();
    // The page's own action carries Ctrl+I (this tab only); this entry mirrors the current tab's.
    QAction* help =
        menu->addAction(IconTheme::icon(QStringLiteral("help-contextual")),
                        QStringLiteral("Show contextual &help  (Ctrl+I)"), this, [this](bool on) {
                            if (NotebookPage* page = currentPage())
                                page->helpAction()->setChecked(on);
                        });
    help->setObjectName(QStringLiteral("menuContextualHelp"));
    help->setCheckable(true);
    QAction* variables =
        menu->addAction(IconTheme::icon(QStringLiteral("lizard-variables")),
                        QStringLiteral("Show &variables  (Ctrl+Shift+V)"), this, [this](bool on) {
                            if (NotebookPage* page = currentPage())
                                page->variablesAction()->setChecked(on);
                        });
    variables->setObjectName(QStringLiteral("menuVariables"));
    variables->setCheckable(true);
    // Like help: the page's actions carry the keys, these entries act on the current tab.
    QAction* find = menu->addAction(IconTheme::icon(QStringLiteral("edit-find")),
                                    QStringLiteral("&Find…  (Ctrl+F)"), this, [this] {
                                        if (NotebookPage* page = currentPage())
                                            page->navigator()->findAction()->trigger();
                                    });
    QAction* replace = menu->addAction(IconTheme::icon(QStringLiteral("edit-find-replace")),
                                       QStringLiteral("&Replace…  (Ctrl+H)"), this, [this] {
                                           if (NotebookPage* page = currentPage())
                                               page->navigator()->replaceAction()->trigger();
                                       });
    QAction* toc = menu->addAction(IconTheme::icon(QStringLiteral("lizard-toc")),
                                   QStringLiteral("&Table of contents  (Ctrl+Shift+K)"), this,
                                   [this](bool on) {
                                       if (NotebookPage* page = currentPage())
                                           page->navigator()->tocAction()->setChecked(on);
                                   });
    toc->setObjectName(QStringLiteral("menuTableOfContents"));
    toc->setCheckable(true);
    connect(menu, &QMenu::aboutToShow, this, [this, exportMenu, find, replace, toc] {
        for (QAction* action : {exportMenu->menuAction(), find, replace, toc})
            action->setEnabled(currentPage());
        toc->setChecked(currentPage() && currentPage()->navigator()->tocAction()->isChecked());
    });
    connect(menu, &QMenu::aboutToShow, this,
            [this, save, saveAs, fork, help, variables, attach, runOnNew] {
                attach->setEnabled(currentPage());
                runOnNew->setEnabled(currentPage());
                save->setEnabled(currentPage());
                saveAs->setEnabled(currentPage());
                fork->setEnabled(currentPage());
                help->setEnabled(currentPage());
                help->setChecked(currentPage() && currentPage()->helpAction()->isChecked());
                variables->setEnabled(currentPage());
                variables->setChecked(currentPage() &&
                                      currentPage()->variablesAction()->isChecked());
            });
    connect(window, &Workbench::backendChanged, this, &NotebookController::onBackendChanged);
    onBackendChanged();
}

QList<NotebookPage*> NotebookController::pages() const
{
    QList<NotebookPage*> list;
    for (DocumentPage* page : m_window->documents()) {
        if (auto* nb = qobject_cast<NotebookPage*>(page))
            list.append(nb);
    }
    return list;
}

NotebookPage* NotebookController::currentPage() const
{
    return qobject_cast<NotebookPage*>(m_window->currentDocument());
}

NotebookPage* NotebookController::createPage(client::LizardApi* api, const QString& sandboxId,
                                             QWidget* parent)
{
    auto* interpreter = new client::CodeInterpreter(api, sandboxId);
    auto* runner = new ClientCodeRunner(interpreter, QString(), QStringLiteral("python"));
    auto* kernel = new ClientNotebookKernel(interpreter, runner);
    return new NotebookPage(sandboxId, runner, kernel, parent);
}

void NotebookController::setNewNotebookLifetime(int minutes)
{
    m_newNotebookMinutes = minutes;
    m_switcher->setNewSandboxLifetime(minutes);
}

NotebookPage* NotebookController::addPage(NotebookPage* page)
{
    page->setSandboxModel(m_window->sandboxes());
    m_switcher->adopt(page);
    page->session()->enableRecovery(m_store);
    QAction* fork = page->toolBar()->addAction(IconTheme::icon(QStringLiteral("lizard-fork")),
                                               QStringLiteral("Fork notebook"));
    fork->setObjectName(QStringLiteral("forkNotebook"));
    fork->setToolTip(
        QStringLiteral("Fork this notebook's sandbox and open a copy of the notebook on the fork, "
                       "with the variables that can be carried"));
    connect(fork, &QAction::triggered, this, [this, page] { forkNotebook(page); });
    m_window->openDocument(page);
    return page;
}

void NotebookController::forkNotebook(NotebookPage* page)
{
    if (!m_window->api()) {
        m_window->showProblem(
            QStringLiteral("Not connected: connect to a server to fork a notebook"));
        return;
    }
    auto* forker = new NotebookForker(m_window->api(), page->session(), this);
    connect(forker, &NotebookForker::progress, m_window, &Workbench::showInfo);
    connect(forker, &NotebookForker::failed, this, [this](const QString& message) {
        m_window->showProblem(message);
        emit forkFailed(message);
    });
    connect(forker, &NotebookForker::forked, this,
            [this, page = QPointer<NotebookPage>(page)](const QString& sandboxId) {
                if (!page) {
                    m_window->showInfo(
                        QStringLiteral("The notebook was closed; its fork %1 is running")
                            .arg(sandboxId));
                    return;
                }
                NotebookPage* branch = openBranch(page, sandboxId);
                emit notebookForked(page, branch);
            });
    forker->start();
}

NotebookPage* NotebookController::openBranch(NotebookPage* source, const QString& forkId)
{
    NotebookPage* branch = createPage(m_window->api(), forkId);
    branch->document()->reset(source->document()->toData(), true); // unsaved until saved
    branch->setBranchOf(source->title().remove(u'*'));
    if (source->session()->kernel() && branch->session()->kernel())
        branch->session()->kernel()->selectContext(source->session()->kernel()->context());
    return addPage(branch);
}

NotebookPage* NotebookController::openNotebook(const QString& sandboxId)
{
    if (!m_window->api() || sandboxId.isEmpty()) {
        m_window->showProblem(QStringLiteral("Select a running sandbox to open a notebook on"));
        return nullptr;
    }
    NotebookPage* page = addPage(createPage(m_window->api(), sandboxId));
    readyForTyping(page);
    return page;
}

void NotebookController::readyForTyping(NotebookPage* page)
{
    CellListWidget* cells = page->cells();
    cells->setFocus();
    if (cells->count() > 0) {
        cells->setCurrentIndex(0);
        cells->enterEditMode();
    }
    if (NotebookKernel* kernel = page->session()->kernel())
        kernel->startKernel();
}

NotebookLauncher* NotebookController::launcher() const
{
    return m_launcher;
}

void NotebookController::newNotebook()
{
    if (m_launcher) { // one at a time; its strip is on show
        m_window->showInfo(QStringLiteral("A new notebook is already starting"));
        return;
    }
    const QString projectId =
        m_window->sandboxes() ? m_window->sandboxes()->projectId() : QString();
    if (!m_window->api() || projectId.isEmpty()) {
        m_window->showProblem(QStringLiteral("New notebook: connect and select a project first"));
        return;
    }
    m_launcher = new NotebookLauncher(m_window->api(), projectId, m_newNotebookMinutes, this);
    // From the click on, what is typed is for the notebook's first cell (TypeAhead).
    m_typeAhead = new TypeAhead(m_window->window(), m_launcher);
    auto* strip = new ProgressStrip;
    m_window->addStrip(strip);
    connect(m_launcher, &QObject::destroyed, strip, &QObject::deleteLater);
    connect(strip, &ProgressStrip::cancelRequested, m_launcher, [this, strip] {
        strip->setCancelling(QStringLiteral("Cancelling: removing the new sandbox…"));
        m_launcher->cancel();
    });
    connect(m_launcher, &NotebookLauncher::stageChanged, strip,
            [strip](NotebookLauncher::Stage stage) {
                strip->setStage(int(stage), NotebookLauncher::kStages,
                                NotebookLauncher::stageText(stage));
            });
    connect(m_launcher, &NotebookLauncher::sandboxCreated, this,
            [this, strip](const client::SandboxInfo& info) {
                m_window->showNewSandbox(info);
                if (info.fromPool) {
                    const QString note =
                        QStringLiteral("Sandbox %1 came from a warm pool").arg(info.sandboxId);
                    strip->setNote(note);
                    // Its Python is running already, so the strip is gone at once: say it where
                    // it stays a moment.
                    if (info.templateName == QLatin1String("interpreter"))
                        m_window->showInfo(note + QStringLiteral(", its Python already running"));
                }
            });
    connect(m_launcher, &NotebookLauncher::ready, this, [this](const QString& sandboxId) {
        NotebookPage* page = openNotebook(sandboxId); // the caret in its first cell
        if (page && m_typeAhead && page->cells()->currentWidget())
            m_typeAhead->replayInto(page->cells()->currentWidget()->editor());
        delete m_typeAhead;
        if (auto* kernel =
                page ? qobject_cast<ClientNotebookKernel*>(page->session()->kernel()) : nullptr) {
            if (client::CodeInterpreter* interpreter = kernel->interpreter())
                interpreter->warmUp(); // the page's own fast path, ready for the first cell
        }
        if (page)
            emit newNotebookOpened(page);
    });
    const auto refreshTable = [this] {
        if (models::SandboxTableModel* model = m_window->sandboxes())
            model->refresh();
    };
    connect(m_launcher, &NotebookLauncher::failed, this,
            [this, refreshTable](const QString& message) {
                delete m_typeAhead; // what was typed goes nowhere: there is no notebook
                refreshTable();
                m_window->showProblem(message);
                emit newNotebookFailed(message);
            });
    connect(m_launcher, &NotebookLauncher::cancelled, this, [this, refreshTable] {
        delete m_typeAhead;
        refreshTable();
        m_window->showInfo(QStringLiteral("New notebook cancelled"));
    });
    m_launcher->start();
}

void NotebookController::openFile(const QString& path, const QString& sandboxId,
                                  std::function<void(NotebookPage*, const QString&)> done)
{
    for (NotebookPage* page : pages()) { // already open: show it
        if (QFileInfo(page->session()->file()->path()) == QFileInfo(path)) {
            m_window->showDocument(page);
            done(page, {});
            return;
        }
    }
    // Not shown until its file is in: it belongs to the controller meanwhile.
    NotebookPage* page = createPage(m_window->api(), sandboxId);
    page->setParent(m_window->window(), Qt::Widget);
    page->hide();
    page->session()->openInBackground(path, [this, page, done](MaybeError failed) {
        if (failed) {
            page->deleteLater();
            done(nullptr, failed->message());
            return;
        }
        // The document took the cells in this turn; the page is laid out and painted in the
        // next (its cell widgets come once it is shown, CellListWidget::wantSlices).
        QTimer::singleShot(0, page, [this, page, done] {
            addPage(page);
            readyForTyping(page);
            done(page, {});
        });
    });
}

QString NotebookController::chooseSandbox(const QString& why)
{
    const QString selected = m_window->currentSandboxId();
    if (!selected.isEmpty())
        return selected;
    QStringList ids;
    if (models::SandboxTableModel* model = m_window->sandboxes()) {
        for (const client::SandboxInfo& info : model->sandboxes())
            ids << info.sandboxId;
    }
    if (ids.isEmpty()) {
        m_window->showProblem(QStringLiteral("%1: create or select a sandbox first").arg(why));
        return {};
    }
    bool ok = false;
    const QString id = QInputDialog::getItem(
        m_window->window(), why, QStringLiteral("Run it in sandbox:"), ids, 0, false, &ok);
    return ok ? id : QString();
}

void NotebookController::openFileInteractive()
{
    if (!m_window->api()) {
        m_window->showProblem(
            QStringLiteral("Not connected: connect to a server to open a notebook"));
        return;
    }
    const QString path = QFileDialog::getOpenFileName(
        m_window->window(), QStringLiteral("Open notebook"), QDir::homePath(),
        QStringLiteral("Jupyter notebooks (*.ipynb);;All files (*)"));
    if (path.isEmpty())
        return;
    const QString sandboxId = chooseSandbox(QStringLiteral("Open notebook"));
    if (sandboxId.isEmpty())
        return;
    openFile(path, sandboxId, [this](NotebookPage* page, const QString& error) {
        if (!page)
            QMessageBox::warning(
                m_window->window(), QStringLiteral("Open notebook"),
                QStringLiteral("The notebook could not be opened (the file is unchanged).\n\n%1")
                    .arg(error));
    });
}

void NotebookController::offerRecovery()
{
    m_offeredRecovery = true;
    for (const RecoveryEntry& entry : m_store.entries()) {
        const QString name = entry.originalPath.isEmpty() ? QStringLiteral("an unsaved notebook")
                                                          : entry.originalPath;
        const auto answer = QMessageBox::question(
            m_window->window(), QStringLiteral("Restore notebook"),
            QStringLiteral("lizard-desktop found unsaved changes to %1 from %2. Restore them?")
                .arg(name,
                     entry.savedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"))),
            QMessageBox::Yes | QMessageBox::No | QMessageBox::Discard, QMessageBox::Yes);
        if (answer == QMessageBox::Discard) {
            m_store.discard(entry);
            continue;
        }
        if (answer != QMessageBox::Yes)
            continue;
        Expected<NotebookData> data = m_store.load(entry);
        if (!data) {
            m_window->showProblem(QStringLiteral("Cannot restore: %1").arg(data.error().message()));
            continue;
        }
        // The sandbox it ran in, as the page wrote it into the notebook's metadata.
        QString sandboxId =
            QString::fromStdString(data.value()
                                       .metadata.value("lizard", nlohmann::json::object())
                                       .value("sandboxId", std::string()));
        if (sandboxId.isEmpty())
            sandboxId = chooseSandbox(QStringLiteral("Restore notebook"));
        if (sandboxId.isEmpty() || !m_window->api())
            continue; // the copy stays for the next start
        NotebookPage* page = createPage(m_window->api(), sandboxId);
        page->session()->file()->restore(entry.originalPath, data.value());
        m_store.discard(entry); // the page's own watcher writes a fresh copy
        addPage(page);
    }
}

void NotebookController::onBackendChanged()
{
    client::LizardApi* api = m_window->api();
    // Each backendChanged is a new connection or none (MainWindow::setBackend, clearBackend).
    // Open notebooks follow it: a new one (the same server after a restart, or another
    // profile) gets a fresh interpreter for the page's sandbox, on the same context; without
    // one, runs say "not connected".
    for (NotebookPage* page : pages()) {
        auto* kernel = qobject_cast<ClientNotebookKernel*>(page->session()->kernel());
        if (kernel == nullptr)
            continue;
        if (api)
            kernel->attach(new client::CodeInterpreter(api, page->sandboxId()));
        else if (m_connected)
            kernel->detach();
    }
    m_connected = api != nullptr;
    for (NotebookPage* page : pages())
        page->setSandboxModel(m_window->sandboxes());
    m_switcher->connectionChanged(api, pages());
    // Copies left by an earlier run are offered once, at the first connection: after a
    // reconnect the store also holds the copies of the notebooks open right now.
    if (api && !m_offeredRecovery) {
        m_offeredRecovery = true;
        if (!m_store.entries().empty())
            QMetaObject::invokeMethod(this, &NotebookController::offerRecovery,
                                      Qt::QueuedConnection);
    }
}

} // namespace lizard::ui::notebook
