#include "ui/sandboxpanel.h"

#include "models/sandboxactions.h"
#include "models/sandboxfilter.h"
#include "models/sandboxrow.h"
#include "models/sandboxstaterules.h"
#include "models/sandboxtablemodel.h"
#include "ui/createsandboxdialog.h"
#include "ui/emptyprojectview.h"
#include "ui/resources/usagebardelegate.h"
#include "ui/statusbadgedelegate.h"
#include "ui/tableselection.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QStackedWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui {

using models::SandboxTableModel;

SandboxPanel::SandboxPanel(QWidget* parent)
    : QWidget(parent), m_filter(new models::SandboxFilterModel(this)), m_search(new QLineEdit),
      m_statusFilter(new QComboBox), m_templateFilter(new QComboBox), m_shown(new QLabel),
      m_view(new QTableView(this)), m_empty(new EmptyProjectView(this)),
      m_stack(new QStackedWidget(this)), m_title(new QLabel(this)), m_bar(new QToolBar(this))
{
    QToolBar* bar = m_bar;
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_new = bar->addAction(IconTheme::icon(QStringLiteral("lizard-sandbox-new")),
                           QStringLiteral("New sandbox…"));
    createLifecycleActions();
    m_kill = bar->addAction(IconTheme::icon(QStringLiteral("lizard-kill")), QStringLiteral("Kill"));
    m_extend = bar->addAction(IconTheme::icon(QStringLiteral("lizard-extend-time")),
                              QStringLiteral("Extend lifetime…"));
    m_copy =
        bar->addAction(IconTheme::icon(QStringLiteral("edit-copy")), QStringLiteral("Copy ID"));
    m_new->setShortcut(QKeySequence::New);
    m_copy->setShortcut(QKeySequence::Copy);
    m_copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);

    m_view->setObjectName(QStringLiteral("sandboxTable"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_view->setItemDelegateForColumn(models::SandboxColumn::Status,
                                     new StatusBadgeDelegate(SandboxTableModel::BadgeRole, m_view));
    auto* bars = new resources::UsageBarDelegate(m_view);
    m_view->setItemDelegateForColumn(models::SandboxColumn::Cpu, bars);
    m_view->setItemDelegateForColumn(models::SandboxColumn::Memory, bars);

    m_search->setObjectName(QStringLiteral("sandboxSearch"));
    m_search->setPlaceholderText(QStringLiteral("Search id, template, metadata (key=value)"));
    m_search->setClearButtonEnabled(true);
    m_statusFilter->setObjectName(QStringLiteral("sandboxStatusFilter"));
    m_templateFilter->setObjectName(QStringLiteral("sandboxTemplateFilter"));
    m_statusFilter->addItem(QStringLiteral("Any status"), QString());
    m_templateFilter->addItem(QStringLiteral("Any template"), QString());
    m_statusFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_templateFilter->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_shown->setObjectName(QStringLiteral("sandboxShown"));
    auto* filters = new QHBoxLayout;
    filters->setContentsMargins(0, 0, 0, 0);
    filters->addWidget(m_search, 1);
    filters->addWidget(m_statusFilter);
    filters->addWidget(m_templateFilter);
    filters->addWidget(m_shown);
    connect(m_search, &QLineEdit::textChanged, m_filter, [this](const QString& text) {
        m_filter->setSearchText(text);
        updateShown();
    });
    const auto comboChanged = [this] {
        m_filter->setStatus(m_statusFilter->currentData().toString());
        m_filter->setTemplateName(m_templateFilter->currentData().toString());
        updateShown();
    };
    connect(m_statusFilter, &QComboBox::currentIndexChanged, this, comboChanged);
    connect(m_templateFilter, &QComboBox::currentIndexChanged, this, comboChanged);
    // A sandbox whose status changes moves in or out of a filtered view by itself.
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &SandboxPanel::updateShown);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &SandboxPanel::updateShown);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &SandboxPanel::updateShown);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(bar);
    layout->addLayout(filters);
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
    m_filter->setTableModel(model);
    m_view->setModel(model ? m_filter : nullptr);
    m_lastId.clear();
    emit currentSandboxChanged({});
    updateActions();
    updateEmptyState();
    if (model == nullptr)
        return;
    m_view->horizontalHeader()->resizeSection(models::SandboxColumn::Id, 190);
    m_view->horizontalHeader()->resizeSection(models::SandboxColumn::Size, 190);
    // Room for the longest badge of the status alone ("running · ending soon").
    m_view->horizontalHeader()->resizeSection(
        models::SandboxColumn::Status,
        m_view->fontMetrics().horizontalAdvance(QStringLiteral("running · ending soon")) + 40);
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
    // The filter menus offer what the project has; the count follows every change.
    for (const auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, signal, this, &SandboxPanel::updateFilterChoices);
    connect(model, &QAbstractItemModel::modelReset, this, &SandboxPanel::updateFilterChoices);
    connect(model, &QAbstractItemModel::dataChanged, this, &SandboxPanel::updateFilterChoices);
    updateFilterChoices();
    updateActions();
}

void SandboxPanel::updateFilterChoices()
{
    const auto refill = [](QComboBox* box, const QStringList& names) {
        const QString chosen = box->currentData().toString();
        QStringList have;
        for (int i = 1; i < box->count(); ++i)
            have << box->itemData(i).toString();
        QStringList want = names;
        // What is chosen stays offered even when no sandbox has it any more.
        if (!chosen.isEmpty() && !want.contains(chosen))
            want.append(chosen);
        if (want == have)
            return;
        const QSignalBlocker quiet(box);
        while (box->count() > 1)
            box->removeItem(1);
        for (const QString& name : std::as_const(want))
            box->addItem(name, name);
        box->setCurrentIndex(qMax(0, box->findData(chosen)));
    };
    refill(m_statusFilter, m_filter->statuses());
    refill(m_templateFilter, m_filter->templateNames());
    updateShown();
}

void SandboxPanel::updateShown()
{
    m_shown->setText(shownText());
}

QString SandboxPanel::shownText() const
{
    if (!m_model || !m_filter->filtering())
        return QString();
    return QStringLiteral("%1 of %2 shown").arg(m_filter->rowCount()).arg(m_model->rowCount());
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
    const QItemSelectionModel* selection = m_view->selectionModel();
    if (selection == nullptr)
        return {};
    const QModelIndex current = selection->currentIndex();
    if (current.isValid() && selection->isRowSelected(current.row(), current.parent()))
        return current.data(SandboxTableModel::SandboxIdRole).toString();
    return selectedRowData(m_view, SandboxTableModel::SandboxIdRole).toString();
}

QStringList SandboxPanel::selectedSandboxIds() const
{
    QStringList ids;
    if (m_view->selectionModel() == nullptr)
        return ids;
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    for (const QModelIndex& i : rows)
        ids << i.data(SandboxTableModel::SandboxIdRole).toString();
    return ids;
}

QStringList SandboxPanel::selectedFor(int action) const
{
    QStringList out;
    if (!m_model)
        return out;
    for (const QString& id : selectedSandboxIds()) {
        const int row = m_model->rowOf(id);
        const QString status = row >= 0 ? m_model->sandboxAt(row).status : QString();
        const bool busy = m_actions && m_actions->busy(id);
        if (models::sandboxActionAllowed(models::SandboxAction(action), status, busy))
            out << id;
    }
    return out;
}

void SandboxPanel::selectSandbox(const QString& sandboxId)
{
    if (!m_model)
        return;
    const int row = m_filter->rowOf(sandboxId);
    if (row < 0 || m_view->selectionModel() == nullptr)
        return;
    // Not selectRow(): with several rows selectable it reads the keyboard's modifiers, and a
    // Ctrl still held would toggle the row off instead.
    m_view->selectionModel()->setCurrentIndex(
        m_filter->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(m_filter->index(row, 0));
}

void SandboxPanel::selectSandboxes(const QStringList& sandboxIds)
{
    if (!m_model || m_view->selectionModel() == nullptr)
        return;
    QItemSelection selection;
    QModelIndex first;
    for (const QString& id : sandboxIds) {
        const int row = m_filter->rowOf(id);
        if (row < 0)
            continue;
        const QModelIndex left = m_filter->index(row, 0);
        if (!first.isValid())
            first = left;
        selection.select(left, m_filter->index(row, m_filter->columnCount() - 1));
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
    const bool one = selectedSandboxIds().size() == 1;
    const auto allowed = [&](models::SandboxAction action) {
        const bool single =
            action == models::SandboxAction::Snapshot || action == models::SandboxAction::Fork;
        return has && (!single || one) && !selectedFor(int(action)).isEmpty();
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
    // A sandbox just made is always shown, even when the filters would hide it.
    if (m_filter->rowOf(info.sandboxId) < 0) {
        m_search->clear();
        m_statusFilter->setCurrentIndex(0);
        m_templateFilter->setCurrentIndex(0);
    }
    selectSandbox(info.sandboxId);
}

void SandboxPanel::confirmKill()
{
    // What was selected when asked is what is killed, whatever the table does meanwhile.
    const QStringList ids = selectedFor(int(models::SandboxAction::Kill));
    if (ids.isEmpty())
        return;
    QString question;
    if (ids.size() == 1) {
        question = QStringLiteral("Kill sandbox %1? Its processes stop and its files are deleted.")
                       .arg(ids.first());
    } else {
        const QStringList named = ids.mid(0, 8);
        question = QStringLiteral("Kill these %1 sandboxes? Their processes stop and their files "
                                  "are deleted.\n\n%2%3")
                       .arg(ids.size())
                       .arg(named.join(QLatin1Char('\n')))
                       .arg(ids.size() > named.size()
                                ? QStringLiteral("\nand %1 more").arg(ids.size() - named.size())
                                : QString());
    }
    const auto answer =
        QMessageBox::question(this, QStringLiteral("Kill sandbox"), question,
                              QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer == QMessageBox::Yes)
        killSandboxes(ids);
}

void SandboxPanel::killSandboxes(const QStringList& sandboxIds)
{
    for (const QString& id : sandboxIds)
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
    const QStringList ids = selectedFor(int(models::SandboxAction::Extend));
    if (ids.isEmpty() || !m_actions)
        return;
    bool ok = false;
    const QString whom =
        ids.size() == 1 ? ids.first() : QStringLiteral("these %1 sandboxes").arg(ids.size());
    const int minutes = QInputDialog::getInt(
        this, QStringLiteral("Extend lifetime"),
        QStringLiteral("Keep %1 alive for (minutes from now):").arg(whom), 30, 1, 35791, 5, &ok);
    if (!ok)
        return;
    for (const QString& id : ids) {
        m_actions->extend(
            id, minutes, this, [this, id, minutes](client::Outcome<client::Unit> outcome) {
                if (outcome)
                    emit message(QStringLiteral("Sandbox %1 now lives %2 more minutes")
                                     .arg(id)
                                     .arg(minutes));
                else
                    emit errorOccurred(outcome.error());
            });
    }
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
    // A right click on a selected row keeps the selection (the actions are for all of it).
    if (index.isValid() && !m_view->selectionModel()->isRowSelected(index.row(), {}))
        m_view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect |
                                                             QItemSelectionModel::Rows);
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
