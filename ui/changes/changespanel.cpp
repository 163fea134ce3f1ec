#include "ui/changes/changespanel.h"

#include "models/changes/changesession.h"
#include "models/changes/changetreemodel.h"
#include "models/templates/recipeskeletonmaker.h"
#include "ui/changes/diffview.h"
#include "ui/templates/recipedialog.h"
#include "ui/theme/apptheme.h"
#include "ui/theme/icontheme.h"
#include "ui/theme/themecolors.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

namespace lizard::ui::changes {

using models::changes::ChangeTreeModel;

namespace {

// The Change column's text in the colour of its kind.
class KindDelegate : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        const QString kind = index.data(ChangeTreeModel::KindRole).toString();
        const ThemeColors& c = ThemeColors::current();
        const QColor color = kind == QLatin1String("added")      ? c.success
                             : kind == QLatin1String("deleted")  ? c.error
                             : kind == QLatin1String("modified") ? c.warning
                                                                 : c.muted;
        option->palette.setColor(QPalette::Text, color);
        if (!kind.isEmpty())
            option->font.setBold(true);
    }
};

} // namespace

const QStringList& ChangesPanel::cachePatterns()
{
    static const QStringList patterns{QStringLiteral("__pycache__"), QStringLiteral("*.pyc"),
                                      QStringLiteral(".cache"), QStringLiteral(".npm"),
                                      QStringLiteral(".pytest_cache")};
    return patterns;
}

ChangesPanel::ChangesPanel(QWidget* parent)
    : QWidget(parent), m_session(new models::changes::ChangesSession(this)),
      m_model(new ChangeTreeModel(this)), m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTreeView), m_diff(new DiffView), m_filter(new QLineEdit),
      m_hideCaches(new QCheckBox(QStringLiteral("Hide caches"))), m_against(new QComboBox),
      m_status(new QLabel), m_poll(new QTimer(this))
{
    m_poll->setSingleShot(true);
    connect(m_poll, &QTimer::timeout, this, &ChangesPanel::refresh);
    setObjectName(QStringLiteral("changesPanel"));
    auto* bar = new QToolBar;
    m_refresh =
        bar->addAction(IconTheme::icon(QStringLiteral("view-refresh")), QStringLiteral("Refresh"));
    m_refresh->setToolTip(QStringLiteral("List the sandbox's changes again"));
    m_revert = bar->addAction(IconTheme::icon(QStringLiteral("document-revert")),
                              QStringLiteral("Revert"));
    m_revert->setObjectName(QStringLiteral("revertChange"));
    m_recipe = bar->addAction(IconTheme::icon(QStringLiteral("document-save-as")),
                              QStringLiteral("Recipe from this sandbox…"));
    m_recipe->setToolTip(QStringLiteral(
        "Save what this sandbox installed (apt, pip, npm) and the files it added or changed as "
        "a template's recipe in a folder, and open it to build"));
    connect(m_recipe, &QAction::triggered, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(
            this, QStringLiteral("An empty folder for the recipe and its files"), QDir::homePath());
        if (!folder.isEmpty())
            makeRecipe(folder);
    });
    m_patch = bar->addAction(IconTheme::icon(QStringLiteral("document-export")),
                             QStringLiteral("Save as patch…"));
    m_patch->setObjectName(QStringLiteral("saveChangesPatch"));
    m_patch->setToolTip(QStringLiteral(
        "Save the listed changes as one patch, to apply elsewhere with patch -p1 or git apply"));
    connect(m_patch, &QAction::triggered, this, [this] {
        const QString file = QFileDialog::getSaveFileName(
            this, QStringLiteral("Save the changes as a patch"),
            QDir::home().filePath(m_session->sandboxId() + QStringLiteral("-changes.patch")),
            QStringLiteral("Patches (*.patch *.diff)"));
        if (!file.isEmpty())
            savePatch(file);
    });
    m_tar = bar->addAction(IconTheme::icon(QStringLiteral("lizard-download")),
                           QStringLiteral("Save as tar…"));
    m_tar->setObjectName(QStringLiteral("saveChangesTar"));
    m_tar->setToolTip(QStringLiteral(
        "Save everything this sandbox changed against its template as a tar: its added and "
        "changed files with their owners and modes, and each deleted path as a .wh. file (the "
        "form of an image layer)"));
    connect(m_tar, &QAction::triggered, this, [this] {
        if (m_session->savingArchive())
            return m_session->cancelArchive();
        const QString file = QFileDialog::getSaveFileName(
            this, QStringLiteral("Save the changes as a tar"),
            QDir::home().filePath(m_session->sandboxId() + QStringLiteral("-changes.tar")),
            QStringLiteral("Tar archives (*.tar)"));
        if (!file.isEmpty())
            saveTar(file);
    });
    m_showAll =
        bar->addAction(IconTheme::icon(QStringLiteral("edit-clear")), QStringLiteral("Show all"));
    m_showAll->setToolTip(QStringLiteral("Show every change again, not only one command's"));
    m_showAll->setVisible(false);
    connect(m_showAll, &QAction::triggered, this,
            [this] { showChangedBetween({}, {}, QString()); });
    bar->addSeparator();
    m_against->setObjectName(QStringLiteral("changesAgainst"));
    m_against->setToolTip(QStringLiteral("What the changes are against: the sandbox's template, a "
                                         "snapshot, or another sandbox (a fork and its source)"));
    m_against->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_against->addItem(QStringLiteral("Against its template"), QString());
    bar->addWidget(m_against);
    connect(m_against, &QComboBox::activated, this, [this] {
        const QString id = m_against->currentData().toString();
        if (id == m_session->against())
            return;
        m_session->setAgainst(id);
        m_diff->setReferenceName(id.isEmpty() ? QStringLiteral("the template")
                                 : id.startsWith(QLatin1String("snap_"))
                                     ? QStringLiteral("snapshot %1").arg(id)
                                     : QStringLiteral("sandbox %1").arg(id));
        m_listedOnce = false;
        m_model->setChanges({});
        m_diff->clear();
        refresh();
        updateActions();
    });
    connect(m_session, &models::changes::ChangesSession::candidatesListed, this,
            [this](const QList<QPair<QString, QString>>& candidates) {
                const QString current = m_against->currentData().toString();
                while (m_against->count() > 1)
                    m_against->removeItem(1);
                for (const auto& [id, label] : candidates)
                    m_against->addItem(QStringLiteral("Against %1").arg(label), id);
                m_against->setCurrentIndex(std::max(0, m_against->findData(current)));
            });
    m_hideCaches->setChecked(true);
    m_hideCaches->setToolTip(
        QStringLiteral("Leave out %1").arg(cachePatterns().join(QStringLiteral(", "))));
    bar->addWidget(m_hideCaches);
    m_filter->setPlaceholderText(QStringLiteral("Filter by path"));
    m_filter->setClearButtonEnabled(true);
    m_filter->setObjectName(QStringLiteral("changesFilter"));
    bar->addWidget(m_filter);

    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterRole(ChangeTreeModel::PathRole);
    m_proxy->setSortRole(ChangeTreeModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(ChangeTreeModel::NameColumn, Qt::AscendingOrder);
    m_view->setUniformRowHeights(true);
    m_view->setItemDelegateForColumn(ChangeTreeModel::ChangeColumn, new KindDelegate(m_view));
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionResizeMode(ChangeTreeModel::NameColumn, QHeaderView::Stretch);
    m_view->setColumnWidth(ChangeTreeModel::ChangeColumn, 130);
    m_view->setColumnWidth(ChangeTreeModel::SizeColumn, 70);
    m_status->setObjectName(QStringLiteral("changesStatus"));
    m_status->setWordWrap(true);

    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_view);
    split->addWidget(m_diff);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    connect(m_refresh, &QAction::triggered, this, &ChangesPanel::refresh);
    connect(m_hideCaches, &QCheckBox::toggled, this, &ChangesPanel::refresh);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        if (!text.isEmpty())
            m_view->expandAll(); // what matched is deep down, usually
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, [this] {
        showSelected();
        updateActions();
    });
    connect(m_revert, &QAction::triggered, this, [this] {
        const client::FileChange* c = selectedChange();
        if (!c)
            return;
        if (c->kind == QLatin1String("added") &&
            QMessageBox::question(this, QStringLiteral("Revert"),
                                  QStringLiteral("%1 is not in the template. Remove it from the "
                                                 "sandbox?")
                                      .arg(c->path)) != QMessageBox::Yes)
            return;
        revert(c->path);
    });
    connect(m_session, &models::changes::ChangesSession::listed, this,
            [this](const client::SandboxChanges& changes) {
                const qint64 took = m_listing.elapsed();
                if (m_listedOnce && m_model->sameAs(inWindow(changes))) {
                    // The same paths: no new tree; the selected file's content may be new.
                    if (m_view->currentIndex().isValid())
                        showSelected();
                } else {
                    // A new tree: what the user opened, selected and scrolled to stays.
                    const QString selected =
                        m_view->currentIndex().data(ChangeTreeModel::PathRole).toString();
                    QSet<QString> expanded;
                    rememberExpanded({}, expanded);
                    const int scroll = m_view->verticalScrollBar()->value();
                    m_model->setChanges(inWindow(changes));
                    if (!m_listedOnce)
                        m_view->expandToDepth(1);
                    m_listedOnce = true;
                    restoreExpanded(expanded);
                    if (!selected.isEmpty())
                        selectPath(selected);
                    m_view->verticalScrollBar()->setValue(scroll);
                }
                setStatus({});
                updateActions();
                if (isVisible())
                    m_poll->start(int(std::max<qint64>(3000, 10 * took)));
                emit listed();
            });
    connect(m_session, &models::changes::ChangesSession::listFailed, this,
            [this](const client::ApiError& e) {
                setStatus(e.httpStatus == 404 && e.code != QLatin1String("NOT_FOUND")
                              ? QStringLiteral("This server lists no changes (it is an extension "
                                               "of lizard-local).")
                              : e.toDisplayString());
                if (isVisible())
                    m_poll->start(10000); // a paused or ended sandbox: less often
                emit listed();
            });
    connect(m_session, &models::changes::ChangesSession::versionsRead, this,
            [this](const models::changes::FileVersions& v) {
                if (m_view->currentIndex().data(ChangeTreeModel::PathRole).toString() != v.path)
                    return; // another file was selected meanwhile
                if (!v.error.isEmpty()) {
                    m_diff->showMessage(v.path, v.error);
                    emit compared(v.path);
                } else {
                    m_diff->showTexts(v.path, v.before ? &*v.before : nullptr,
                                      v.after ? &*v.after : nullptr);
                }
            });
    connect(m_diff, &DiffView::shown, this, &ChangesPanel::compared);
    connect(m_session, &models::changes::ChangesSession::reverted, this,
            [this](const QString& path) {
                emit message(QStringLiteral("Reverted %1").arg(path));
                refresh();
            });
    connect(m_session, &models::changes::ChangesSession::revertFailed, this,
            &ChangesPanel::errorOccurred);
    updateActions();
    setStatus({});
}

void ChangesPanel::setBackend(client::LizardApi* api)
{
    m_session->setApi(api);
    showSandbox(QString());
}

void ChangesPanel::showSandbox(const QString& sandboxId)
{
    if (sandboxId == m_session->sandboxId())
        return;
    m_session->setSandboxId(sandboxId);
    m_listedOnce = false;
    m_model->setChanges({});
    m_diff->clear();
    while (m_against->count() > 1)
        m_against->removeItem(1);
    m_against->setCurrentIndex(0);
    m_diff->setReferenceName(QStringLiteral("the template"));
    m_windowFrom = m_windowTo = QDateTime();
    m_windowWhat.clear();
    m_showAll->setVisible(false);
    if (isVisible())
        refresh();
    m_session->listCandidates();
    updateActions();
    setStatus({});
}

void ChangesPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    refresh(); // what the agent did since the tab was last looked at
}

void ChangesPanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_poll->stop();
}

void ChangesPanel::refresh()
{
    m_poll->stop();
    if (!m_session->ready())
        return setStatus({});
    if (!m_listedOnce)
        setStatus(QStringLiteral("Listing the changes…"));
    m_listing.start();
    m_session->list(m_hideCaches->isChecked() ? cachePatterns() : QStringList());
}

void ChangesPanel::rememberExpanded(const QModelIndex& parent, QSet<QString>& paths) const
{
    for (int r = 0; r < m_proxy->rowCount(parent); ++r) {
        const QModelIndex at = m_proxy->index(r, 0, parent);
        if (!m_view->isExpanded(at))
            continue;
        paths.insert(at.data(ChangeTreeModel::PathRole).toString());
        rememberExpanded(at, paths);
    }
}

void ChangesPanel::restoreExpanded(const QSet<QString>& paths)
{
    for (const QString& path : paths) {
        const QModelIndex at = m_proxy->mapFromSource(m_model->indexOf(path));
        if (at.isValid())
            m_view->expand(at);
    }
}

QString ChangesPanel::statusText() const
{
    return m_status->text();
}

void ChangesPanel::setStatus(const QString& text)
{
    if (!text.isEmpty())
        return m_status->setText(text);
    if (m_session->sandboxId().isEmpty())
        return m_status->setText(QStringLiteral("Select a sandbox to see what it changed."));
    const client::SandboxChanges& all = m_model->changes();
    if (all.templateName.isEmpty())
        return m_status->clear();
    const QString reference = all.against == QLatin1String("snapshot")
                                  ? QStringLiteral("snapshot %1").arg(all.againstId)
                              : all.against == QLatin1String("sandbox")
                                  ? QStringLiteral("sandbox %1").arg(all.againstId)
                                  : QStringLiteral("the template “%1”").arg(all.templateName);
    QString line = all.changes.isEmpty()
                       ? QStringLiteral("Nothing changed against %1.").arg(reference)
                       : QStringLiteral("%1 added, %2 modified, %3 deleted against %4.")
                             .arg(m_model->count(QStringLiteral("added")))
                             .arg(m_model->count(QStringLiteral("modified")))
                             .arg(m_model->count(QStringLiteral("deleted")))
                             .arg(reference);
    if (m_windowFrom.isValid())
        line = (all.changes.isEmpty()
                    ? QStringLiteral("No file of the sandbox was written by %1 (deletions are "
                                     "not dated).")
                    : QStringLiteral("%2 file(s) written by %1 (by their modification times; "
                                     "deletions are not dated)."))
                   .arg(m_windowWhat)
                   .arg(all.changes.size());
    if (all.truncated)
        line += QStringLiteral(" Only the first %1 are listed.").arg(all.changes.size());
    QStringList blind;
    for (const QStringList& n : all.notCompared)
        blind << n.value(0);
    if (!blind.isEmpty())
        line += QStringLiteral(" Not compared: %1.").arg(blind.join(QStringLiteral(", ")));
    m_status->setText(line);
}

const client::FileChange* ChangesPanel::selectedChange() const
{
    return m_model->change(m_view->currentIndex().data(ChangeTreeModel::PathRole).toString());
}

client::SandboxChanges ChangesPanel::inWindow(const client::SandboxChanges& all) const
{
    if (!m_windowFrom.isValid())
        return all;
    // A second either side: the times are the files', the window the server's record of the
    // command, and a file written in the command's last moment is its.
    const qint64 from = (m_windowFrom.toMSecsSinceEpoch() - 1000) * 1000000;
    const qint64 to = (m_windowTo.toMSecsSinceEpoch() + 1000) * 1000000;
    client::SandboxChanges out = all;
    out.changes.clear();
    for (const client::FileChange& c : all.changes) {
        if (c.kind != QLatin1String("deleted") && c.type != QLatin1String("dir") &&
            c.mtimeNs >= from && c.mtimeNs <= to)
            out.changes.append(c);
    }
    return out;
}

void ChangesPanel::showChangedBetween(const QDateTime& from, const QDateTime& to,
                                      const QString& what)
{
    m_windowFrom = from;
    m_windowTo = to.isValid() ? to : from;
    m_windowWhat = what;
    m_showAll->setVisible(from.isValid());
    m_listedOnce = false;
    m_model->setChanges({});
    m_diff->clear();
    refresh();
}

void ChangesPanel::makeRecipe(const QString& folder)
{
    if (!m_session->ready())
        return;
    auto* maker = new models::RecipeSkeletonMaker(m_session->api(), this);
    connect(maker, &models::RecipeSkeletonMaker::progress, this, &ChangesPanel::setStatus);
    connect(maker, &models::RecipeSkeletonMaker::failed, this, [this, maker](const QString& why) {
        maker->deleteLater();
        setStatus(QStringLiteral("No recipe: %1").arg(why));
        emit message(QStringLiteral("No recipe: %1").arg(why));
    });
    connect(maker, &models::RecipeSkeletonMaker::made, this,
            [this, maker](const models::RecipeSkeleton& skeleton, const QString& path) {
                maker->deleteLater();
                auto* editor = new RecipeDialog(m_session->api(), {}, skeleton.recipe, this);
                editor->setAttribute(Qt::WA_DeleteOnClose);
                editor->folderEdit()->setText(QFileInfo(path).absolutePath());
                editor->show();
                const QString saved = QStringLiteral("Recipe saved as %1 with %2 file(s) beside it")
                                          .arg(path)
                                          .arg(skeleton.files.size());
                setStatus(saved);
                emit message(saved);
                emit recipeOpened(editor);
            });
    maker->make(m_session->sandboxId(), m_model->changes().templateName, folder);
}

void ChangesPanel::updateActions()
{
    const client::FileChange* c = selectedChange();
    // A file can be put back from the template; what the sandbox added, removed.
    const bool file = c && (c->type == QLatin1String("file") || c->kind == QLatin1String("added"));
    // Revert puts the template's file back: only what is listed against the template.
    m_revert->setEnabled(m_session->api() && file && c->was.isEmpty() &&
                         m_session->against().isEmpty());
    m_recipe->setEnabled(m_session->ready() && m_listedOnce);
    m_patch->setEnabled(m_session->ready() && m_listedOnce && !m_patchMaker);
    // The tar is the sandbox's own layer: against its template only. While it is saved the
    // action cancels it.
    const bool saving = m_session->savingArchive();
    m_tar->setEnabled(m_session->ready() && (saving || m_session->against().isEmpty()));
    m_tar->setText(saving ? QStringLiteral("Cancel the tar") : QStringLiteral("Save as tar…"));
    m_revert->setToolTip(
        !c ? QStringLiteral("Select a changed file to revert it")
        : c->kind == QLatin1String("added")
            ? QStringLiteral("Remove %1: the template does not have it").arg(c->path)
        : file && c->was.isEmpty()
            ? QStringLiteral("Put the template's version of %1 back").arg(c->path)
            : QStringLiteral("Only files can be put back from the template"));
}

bool ChangesPanel::selectPath(const QString& path)
{
    const QModelIndex at = m_proxy->mapFromSource(m_model->indexOf(path));
    if (!at.isValid())
        return false;
    m_view->scrollTo(at);
    m_view->selectionModel()->setCurrentIndex(at, QItemSelectionModel::ClearAndSelect |
                                                      QItemSelectionModel::Rows);
    return true;
}

void ChangesPanel::showSelected()
{
    const QString path = m_view->currentIndex().data(ChangeTreeModel::PathRole).toString();
    const client::FileChange* c = m_model->change(path);
    if (!c)
        return m_diff->showMessage(path, QStringLiteral("A folder the sandbox did not change "
                                                        "itself; changes are inside."));
    if (c->type != QLatin1String("file")) {
        const QString what = c->type == QLatin1String("dir")       ? QStringLiteral("A folder")
                             : c->type == QLatin1String("symlink") ? QStringLiteral("A link")
                                                                   : QStringLiteral("A node");
        return m_diff->showMessage(
            path,
            QStringLiteral("%1, %2%3.")
                .arg(what, c->kind,
                     c->was.isEmpty() ? QString() : QStringLiteral(" (it was a %1)").arg(c->was)));
    }
    // The same file again (a new listing): its diff stays until the new one replaces it.
    if (m_diff->title() != path)
        m_diff->showMessage(path, QStringLiteral("Reading both versions…"));
    m_session->readVersions(*c);
}

void ChangesPanel::revert(const QString& path)
{
    if (const client::FileChange* c = m_model->change(path))
        m_session->revert(*c);
}

} // namespace lizard::ui::changes
