#include "ui/workbench.h"

#include "models/sandboxtablemodel.h"
#include "ui/changes/changespanel.h"
#include "ui/consolearea.h"
#include "ui/documenttabs.h"
#include "ui/files/filespanel.h"
#include "ui/mainwindow.h"
#include "ui/sandboxpanel.h"

#include <QMenu>
#include <QMenuBar>
#include <QStyledItemDelegate>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <memory>

namespace lizard::ui {

Workbench::Workbench(MainWindow* window) : QObject(window), m_window(window)
{
    connect(window, &MainWindow::backendChanged, this, &Workbench::backendChanged);
    connect(window->sandboxPanel(), &SandboxPanel::currentSandboxChanged, this,
            &Workbench::currentSandboxChanged);
}

QWidget* Workbench::window() const
{
    return m_window;
}

client::LizardApi* Workbench::api() const
{
    return m_window->api();
}

models::SandboxTableModel* Workbench::sandboxes() const
{
    return m_window->sandboxModel();
}

models::SandboxActions* Workbench::sandboxActions() const
{
    return m_window->sandboxActions();
}

QString Workbench::currentSandboxId() const
{
    return m_window->sandboxPanel()->currentSandboxId();
}

QStringList Workbench::consoleSandboxIds() const
{
    return m_window->consoleArea()->sandboxIds();
}

void Workbench::showNewSandbox(const client::SandboxInfo& info)
{
    m_window->sandboxPanel()->showNewSandbox(info);
}

void Workbench::setSandboxIdDelegate(QStyledItemDelegate* delegate)
{
    QTableView* table = m_window->sandboxPanel()->view();
    delegate->setParent(table);
    table->setItemDelegateForColumn(0, delegate);
}

void Workbench::updateSandboxList()
{
    m_window->sandboxPanel()->view()->viewport()->update();
}

void Workbench::addMenu(QMenu* menu)
{
    menu->setParent(m_window, menu->windowFlags());
    m_window->menuBar()->insertMenu(m_window->helpMenu()->menuAction(), menu);
}

void Workbench::addSandboxAction(QAction* action)
{
    m_window->sandboxPanel()->addSandboxAction(action);
}

void Workbench::addSandboxMenuAction(QAction* action)
{
    QMenu* menu = m_window->sandboxMenu();
    menu->addSeparator();
    menu->addAction(action);
}

void Workbench::setNewNotebookAction(QAction* action)
{
    m_window->sandboxPanel()->setNewNotebookAction(action);
}

void Workbench::addToolTab(QWidget* panel, const QString& title)
{
    m_window->toolTabs()->addTab(panel, title);
}

void Workbench::showChangesBetween(const QString& sandboxId, const QDateTime& from,
                                   const QDateTime& to, const QString& what)
{
    changes::ChangesPanel* panel = m_window->changesPanel();
    m_window->toolTabs()->setCurrentWidget(panel);
    panel->showSandbox(sandboxId);
    panel->showChangedBetween(from, to, what);
}

void Workbench::showFile(const QString& sandboxId, const QString& path)
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

void Workbench::openDocument(DocumentPage* page)
{
    m_window->documentTabs()->openDocument(page);
}

void Workbench::showDocument(DocumentPage* page)
{
    m_window->documentTabs()->showDocument(page);
}

QList<DocumentPage*> Workbench::documents() const
{
    return m_window->documentTabs()->documents();
}

DocumentPage* Workbench::currentDocument() const
{
    return m_window->documentTabs()->currentDocument();
}

void Workbench::showProblem(const QString& text)
{
    m_window->showProblem(text);
}

void Workbench::showInfo(const QString& text)
{
    m_window->showInfo(text);
}

void Workbench::showError(const client::ApiError& error)
{
    m_window->showError(error);
}

void Workbench::addStrip(QWidget* strip)
{
    m_window->addStrip(strip);
}

} // namespace lizard::ui
