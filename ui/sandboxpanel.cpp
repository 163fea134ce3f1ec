#include "ui/sandboxpanel.h"

#include "models/sandboxactions.h"
#include "models/sandboxrow.h"
#include "models/sandboxstaterules.h"
#include "models/sandboxtablemodel.h"
#include "ui/createsandboxdialog.h"
#include "ui/emptyprojectview.h"
#include "ui/tableselection.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QStackedWidget>
#include <QStyle>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui {

using models::SandboxTableModel;

SandboxPanel::SandboxPanel(QWidget* parent)
    : QWidget(parent), m_view(new QTableView(this)), m_empty(new EmptyProjectView(this)),
      m_stack(new QStackedWidget(this)), m_title(new QLabel(this)), m_bar(new QToolBar(this))
{
    QToolBar* bar = m_bar;
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_new =
        bar->addAction(style()->standardIcon(QStyle::SP_FileIcon), QStringLiteral("New sandbox…"));
    createLifecycleActions();
    m_kill = bar->addAction(style()->standardIcon(QStyle::SP_DialogDiscardButton),
                            QStringLiteral("Kill"));
    m_extend = bar->addAction(style()->standardIcon(QStyle::SP_BrowserReload),
                              QStringLiteral("Extend lifetime…"));
    m_copy = bar->addAction(QStringLiteral("Copy ID"));
    m_new->setShortcut(QKeySequence::New);
    m_copy->setShortcut(QKeySequence::Copy);
    m_copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);

    m_view->setObjectName(QStringLiteral("sandboxTable"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(bar);
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_empty);
    m_empty->setNewSandboxAction(m_new);
    layout->addWidget(m_stack, 1);

    connect(m_new, &QAction::triggered, this, &SandboxPanel::newSandbox);
    connect(m_kill, &QAction::triggered, this, &SandboxPanel::confirmKill);
    connect(m_extend, &QAction::triggered, this, &SandboxPanel::extendLifetime);
    connect(m_copy, &QAction::triggered, this, &SandboxPanel::copyId);
    connect(m_view, &QWidget::customContextMenuRequested, this, &SandboxPanel::showContextMenu);
    setProjectName({});
    updateActions();
}

void SandboxPanel::setBackend(SandboxTableModel* model, models::SandboxActions* actions)
{
    m_model = model;
    m_actions = actions;
    m_view->setModel(model);
    m_lastId.clear();
    emit currentSandboxChanged({});
    updateActions();
    updateEmptyState();
    if (model == nullptr)
        return;
    m_view->horizontalHeader()->resizeSection(models::SandboxColumn::Id, 190);
    m_view->horizontalHeader()->resizeSection(models::SandboxColumn::Size, 190);
    // The size cell names the limits that really hold, a text that varies with the host.
    const auto fitSize = [this] { m_view->resizeColumnToContents(models::SandboxColumn::Size); };
    connect(model, &QAbstractItemModel::rowsInserted, this, fitSize);
    connect(model, &QAbstractItemModel::modelReset, this, fitSize);
    const auto changed = [this] {
        updateActions();
        const QString id = currentSandboxId();
        if (id != m_lastId) {
            m_lastId = id;
            emit currentSandboxChanged(id);
        }
    };
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, changed);
    connect(model, &QAbstractItemModel::rowsRemoved, this, changed);
    connect(model, &QAbstractItemModel::modelReset, this, changed);
    // A status change (paused, running) or an operation of ours changes what fits.
    connect(model, &QAbstractItemModel::dataChanged, this, &SandboxPanel::updateActions);
    // The first sandbox brings the table back; the last one gone shows what to do next.
    connect(model, &models::SandboxTableModel::loadedChanged, this,
            &SandboxPanel::updateEmptyState);
    connect(model, &QAbstractItemModel::rowsInserted, this, &SandboxPanel::updateEmptyState);
    connect(model, &QAbstractItemModel::rowsRemoved, this, &SandboxPanel::updateEmptyState);
    connect(model, &QAbstractItemModel::modelReset, this, &SandboxPanel::updateEmptyState);
    if (actions != nullptr)
        connect(actions, &models::SandboxActions::busyChanged, this, &SandboxPanel::updateActions);
    updateActions();
}

bool SandboxPanel::showsEmptyProject() const
{
    return m_stack->currentWidget() == m_empty;
}

void SandboxPanel::updateEmptyState()
{
    const bool empty = m_model && !m_model->projectId().isEmpty() && m_model->isLoaded() &&
                       m_model->rowCount() == 0;
    m_stack->setCurrentWidget(empty ? static_cast<QWidget*>(m_empty) : m_view);
}

void SandboxPanel::setNewNotebookAction(QAction* action)
{
    m_newNotebook = action;
    m_bar->insertAction(m_new, action);
    m_empty->setNewNotebookAction(action);
    updateActions();
}

void SandboxPanel::setProjectName(const QString& name)
{
    m_title->setText(name.isEmpty()
                         ? QStringLiteral("<b>Sandboxes</b>")
                         : QStringLiteral("<b>Sandboxes in %1</b>").arg(name.toHtmlEscaped()));
    updateActions();
}

QString SandboxPanel::currentSandboxId() const
{
    return selectedRowData(m_view, SandboxTableModel::SandboxIdRole).toString();
}

void SandboxPanel::selectSandbox(const QString& sandboxId)
{
    if (!m_model)
        return;
    const int row = m_model->rowOf(sandboxId);
    if (row >= 0)
        m_view->selectRow(row);
}

void SandboxPanel::selectSandboxes(const QStringList& sandboxIds)
{
    if (!m_model || m_view->selectionModel() == nullptr)
        return;
    QItemSelection selection;
    QModelIndex first;
    for (const QString& id : sandboxIds) {
        const int row = m_model->rowOf(id);
        if (row < 0)
            continue;
        const QModelIndex left = m_model->index(row, 0);
        if (!first.isValid())
            first = left;
        selection.select(left, m_model->index(row, m_model->columnCount() - 1));
    }
    if (!first.isValid())
        return;
    // Several rows can be selected this way (the user selects one at a time); the first copy is
    // current and is what the actions act on.
    m_view->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    m_view->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect |
                                                    QItemSelectionModel::Rows);
    m_view->scrollTo(first);
}

void SandboxPanel::addSandboxAction(QAction* action)
{
    // After the create actions, ahead of pause, kill and the rest: what a sandbox is for comes
    // first, and stays in view when the bar is too narrow for every action.
    const QList<QAction*> all = m_bar->actions();
    qsizetype at = all.indexOf(m_new) + 1;
    while (at < all.size() && m_extra.contains(all.at(at)))
        ++at;
    m_extra.append(action);
    m_bar->insertAction(at < all.size() ? all.at(at) : nullptr, action);
    updateActions();
}

void SandboxPanel::updateActions()
{
    const QString id = currentSandboxId();
    const bool has = !id.isEmpty();
    QString status;
    if (has && m_model) {
        const int row = m_model->rowOf(id);
        if (row >= 0)
            status = m_model->sandboxAt(row).status;
    }
    const bool busy = has && m_actions && m_actions->busy(id);
    const auto allowed = [&](models::SandboxAction action) {
        return has && models::sandboxActionAllowed(action, status, busy);
    };
    for (QAction* action : std::as_const(m_extra))
        action->setEnabled(has);
    m_new->setEnabled(m_model && !m_model->projectId().isEmpty());
    if (m_newNotebook)
        m_newNotebook->setEnabled(m_new->isEnabled());
    m_kill->setEnabled(allowed(models::SandboxAction::Kill));
    m_extend->setEnabled(allowed(models::SandboxAction::Extend));
    m_copy->setEnabled(has);
    m_pause->setEnabled(allowed(models::SandboxAction::Pause));
    m_resume->setEnabled(allowed(models::SandboxAction::Resume));
    m_snapshot->setEnabled(allowed(models::SandboxAction::Snapshot));
    m_fork->setEnabled(allowed(models::SandboxAction::Fork));
}

void SandboxPanel::newSandbox()
{
    if (!m_model || !m_actions || m_model->projectId().isEmpty())
        return;
    auto* dialog = new CreateSandboxDialog(m_actions, m_model->projectId(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &CreateSandboxDialog::sandboxCreated, this,
            [this, dialog](const client::SandboxInfo& info) {
                emit message(info.fromPool
                                 ? QStringLiteral("Created sandbox %1 (from a warm pool: started "
                                                  "ahead, yours from now on)")
                                       .arg(info.sandboxId)
                                 : QStringLiteral("Created sandbox %1").arg(info.sandboxId));
                showNewSandbox(info);
                if (dialog->screenSize().isValid())
                    startDesktop(info.sandboxId, dialog->screenSize());
            });
    dialog->open();
}

void SandboxPanel::startDesktop(const QString& sandboxId, QSize size)
{
    if (!m_actions)
        return;
    m_actions->startDesktop(sandboxId, size, this,
                            [this, sandboxId](client::Outcome<client::DesktopInfo> o) {
                                if (!o) {
                                    emit errorOccurred(o.error());
                                    return;
                                }
                                emit message(QStringLiteral("The desktop of %1 runs at %2 × %3")
                                                 .arg(sandboxId)
                                                 .arg(o.value().width)
                                                 .arg(o.value().height));
                                emit desktopStarted(sandboxId);
                            });
}

void SandboxPanel::showNewSandbox(const client::SandboxInfo& info)
{
    // The table refreshes after a create; the row goes in now so it can be selected.
    if (m_model && m_model->rowOf(info.sandboxId) < 0)
        m_model->applySandboxes(m_model->sandboxes() + QList<client::SandboxInfo>{info});
    selectSandbox(info.sandboxId);
}

void SandboxPanel::confirmKill()
{
    const QString id = currentSandboxId();
    if (id.isEmpty())
        return;
    const auto answer = QMessageBox::question(
        this, QStringLiteral("Kill sandbox"),
        QStringLiteral("Kill sandbox %1? Its processes stop and its files are deleted.").arg(id),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Yes)
        killSandbox(id);
}

void SandboxPanel::killSandbox(const QString& sandboxId)
{
    if (!m_actions)
        return;
    m_actions->kill(sandboxId, this, [this, sandboxId](client::Outcome<client::Unit> outcome) {
        if (outcome)
            emit message(QStringLiteral("Killed sandbox %1").arg(sandboxId));
        else
            emit errorOccurred(outcome.error());
    });
}

void SandboxPanel::extendLifetime()
{
    const QString id = currentSandboxId();
    if (id.isEmpty() || !m_actions)
        return;
    bool ok = false;
    const int minutes = QInputDialog::getInt(
        this, QStringLiteral("Extend lifetime"),
        QStringLiteral("Keep %1 alive for (minutes from now):").arg(id), 30, 1, 35791, 5, &ok);
    if (!ok)
        return;
    m_actions->extend(
        id, minutes, this, [this, id, minutes](client::Outcome<client::Unit> outcome) {
            if (outcome)
                emit message(
                    QStringLiteral("Sandbox %1 now lives %2 more minutes").arg(id).arg(minutes));
            else
                emit errorOccurred(outcome.error());
        });
}

void SandboxPanel::copyId()
{
    const QString id = currentSandboxId();
    if (id.isEmpty())
        return;
    QApplication::clipboard()->setText(id);
    emit message(QStringLiteral("Copied %1").arg(id));
}

void SandboxPanel::showContextMenu(const QPoint& pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (index.isValid())
        m_view->selectRow(index.row());
    QMenu menu(this);
    if (m_newNotebook)
        menu.addAction(m_newNotebook);
    menu.addAction(m_new);
    if (index.isValid()) {
        menu.addSeparator();
        menu.addAction(m_pause);
        menu.addAction(m_resume);
        menu.addAction(m_snapshot);
        menu.addAction(m_fork);
        menu.addSeparator();
        menu.addAction(m_copy);
        menu.addAction(m_extend);
        if (!m_extra.isEmpty())
            menu.addSeparator();
        menu.addActions(m_extra);
        menu.addSeparator();
        menu.addAction(m_kill);
    }
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace lizard::ui
