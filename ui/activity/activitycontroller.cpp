#include "ui/activity/activitycontroller.h"

#include "models/activity/activitypulse.h"
#include "models/sandboxtablemodel.h"
#include "notebook/celldata.h"
#include "notebook/notebookdocument.h"
#include "notebook/notebookkernel.h"
#include "ui/activity/activebadgedelegate.h"
#include "ui/activity/activitypanel.h"
#include "ui/files/filespanel.h"
#include "ui/mainwindow.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookpage.h"
#include "ui/sandboxpanel.h"

#include <QTabWidget>
#include <QTableView>
#include <QTimer>

namespace lizard::ui::activity {

ActivityController::ActivityController(MainWindow* window, notebook::NotebookController* notebooks,
                                       QObject* parent)
    : QObject(parent), m_window(window), m_notebooks(notebooks), m_panel(new ActivityPanel),
      m_pulse(new models::ActivityPulse(this))
{
    // The "active now" badge before each sandbox id in the list.
    QTableView* table = window->sandboxPanel()->view();
    table->setItemDelegateForColumn(
        0, new ActiveBadgeDelegate(m_pulse, models::SandboxTableModel::SandboxIdRole, table));
    connect(m_pulse, &models::ActivityPulse::changed, table->viewport(),
            qOverload<>(&QWidget::update));
    m_pulse->setApi(window->api());
    updatePulseSandboxes();
    m_panel->setObjectName(QStringLiteral("activityPanel"));
    window->toolTabs()->addTab(m_panel, tr("Activity"));
    m_panel->setApi(window->api());
    m_panel->showSandbox(window->sandboxPanel()->currentSandboxId());
    connect(window, &MainWindow::backendChanged, this, [this] {
        m_pulse->setApi(m_window->api());
        updatePulseSandboxes();
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
    page->session()->kernel()->selectContext(
        lizard::notebook::ContextChoice{id, language, QString()});
    emit notebookOpened(page);
}

void ActivityController::updatePulseSandboxes()
{
    QStringList ids;
    if (QAbstractItemModel* model = m_window->sandboxPanel()->view()->model()) {
        for (int row = 0; row < model->rowCount(); ++row)
            ids << model->index(row, 0).data(models::SandboxTableModel::SandboxIdRole).toString();
        // Follows the list as it refreshes (rows come and go).
        if (!model->property("lizardPulseConnected").toBool()) {
            model->setProperty("lizardPulseConnected", true);
            for (auto signal :
                 {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
                connect(model, signal, this, &ActivityController::updatePulseSandboxes);
            connect(model, &QAbstractItemModel::modelReset, this,
                    &ActivityController::updatePulseSandboxes);
        }
    }
    m_pulse->setSandboxes(ids);
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
