#include "ui/activity/activitycontroller.h"

#include "notebook/celldata.h"
#include "notebook/notebookdocument.h"
#include "ui/activity/activitypanel.h"
#include "ui/files/filespanel.h"
#include "ui/mainwindow.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookkernel.h"
#include "ui/notebook/notebookpage.h"
#include "ui/sandboxpanel.h"

#include <QTabWidget>
#include <QTimer>

namespace lizard::ui::activity {

ActivityController::ActivityController(MainWindow* window, notebook::NotebookController* notebooks,
                                       QObject* parent)
    : QObject(parent), m_window(window), m_notebooks(notebooks), m_panel(new ActivityPanel)
{
    m_panel->setObjectName(QStringLiteral("activityPanel"));
    window->toolTabs()->addTab(m_panel, tr("Activity"));
    m_panel->setApi(window->api());
    m_panel->showSandbox(window->sandboxPanel()->currentSandboxId());
    connect(window, &MainWindow::backendChanged, this, [this] {
        m_panel->setApi(m_window->api());
        m_panel->showSandbox(m_window->sandboxPanel()->currentSandboxId());
    });
    connect(window->sandboxPanel(), &SandboxPanel::currentSandboxChanged, m_panel,
            &ActivityPanel::showSandbox);
    connect(m_panel, &ActivityPanel::errorOccurred, window, &MainWindow::showError);
    connect(m_panel, &ActivityPanel::message, window, &MainWindow::showInfo);
    connect(m_panel, &ActivityPanel::openNotebookRequested, this,
            &ActivityController::openNotebook);
    connect(m_panel, &ActivityPanel::showFileRequested, this, &ActivityController::showFile);
}

void ActivityController::openNotebook(const QString& sandboxId,
                                      const lizard::notebook::NotebookData& data,
                                      const QString& contextId, const QString& language)
{
    if (!m_notebooks)
        return;
    notebook::NotebookPage* page = m_notebooks->openNotebook(sandboxId);
    if (page == nullptr)
        return;
    // The runs as they were (with their outputs), unsaved; new cells run in the agent's
    // context, where its variables are. A runner default context has no id of its own.
    page->document()->reset(data, true);
    const QString id = contextId.startsWith(QStringLiteral("default-")) ? QString() : contextId;
    page->kernel()->selectContext(notebook::ContextChoice{id, language, QString()});
    emit notebookOpened(page);
}

void ActivityController::showFile(const QString& sandboxId, const QString& path)
{
    files::FilesPanel* files = m_window->filesPanel();
    m_window->toolTabs()->setCurrentWidget(files);
    files->showSandbox(sandboxId);
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    files->setRootPath(slash <= 0 ? QStringLiteral("/") : path.left(slash));
    // The folder lists asynchronously: select the file once it is there (a few tries).
    auto tries = std::make_shared<int>(0);
    auto* timer = new QTimer(files);
    timer->setInterval(100);
    connect(timer, &QTimer::timeout, files, [files, path, tries, timer] {
        if (files->selectPath(path) || ++*tries > 50)
            timer->deleteLater();
    });
    timer->start();
}

} // namespace lizard::ui::activity
