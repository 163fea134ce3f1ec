#pragma once
// The Changes tab of the selected sandbox: what it added, modified and deleted against its
// template (lizard-local's GET .../changes) as a tree with badges, filtered by path, with or
// without caches; the selected file's template and sandbox versions side by side; Revert puts
// the template's version back (or removes what the sandbox added). While the tab is shown it
// lists again and again, as an agent works: every 3 s, or ten times as long as the last listing
// took when that is longer (a listing walks the sandbox's whole layer). What the user expanded,
// the selection and the scroll positions stay. "Against" compares with a snapshot or another
// sandbox of the same template instead (a fork with its source). "Recipe from this sandbox…" saves
// what it installed and changed as a recipe in a folder and opens it in the recipe editor; "Save
// as patch…" saves the listed changes as one patch, "Save as tar…" the sandbox's changes
// against its template as a tar in the form of an image layer (changespanel_patch.cpp).

#include "client/outcome.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QModelIndex>
#include <QSet>
#include <QWidget>

class QAction;
class QCheckBox;
class QComboBox;
class QDialog;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTimer;
class QTreeView;

namespace lizard::client {
class LizardApi;
struct FileChange;
struct SandboxChanges;
} // namespace lizard::client

namespace lizard::models::changes {
class ChangeTreeModel;
class ChangesSession;
} // namespace lizard::models::changes

namespace lizard::ui::changes {

class DiffView;

class ChangesPanel : public QWidget
{
    Q_OBJECT
public:
    // What "Hide caches" leaves out: tools' caches an agent rarely means to change.
    static const QStringList& cachePatterns();

    explicit ChangesPanel(QWidget* parent = nullptr);

    void setBackend(client::LizardApi* api);    // not owned; null: disconnected
    void showSandbox(const QString& sandboxId); // empty: placeholder
    void refresh();

    models::changes::ChangeTreeModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }
    DiffView* diffView() const { return m_diff; }
    QLineEdit* filter() const { return m_filter; }
    QCheckBox* hideCaches() const { return m_hideCaches; }
    // What the changes are against: the template (data "") or, once listed, the project's
    // snapshots and the other sandboxes of the same template (data: their ids).
    QComboBox* againstBox() const { return m_against; }
    QAction* refreshAction() const { return m_refresh; }
    QAction* revertAction() const { return m_revert; }
    QAction* recipeAction() const { return m_recipe; }
    QString statusText() const;
    // Selects `path` in the tree (and shows its versions); false when it is not listed.
    bool selectPath(const QString& path);
    // Puts the template's version of `path` back, or removes it if the sandbox added it.
    void revert(const QString& path);
    // Only what changed between `from` and `to` (by modification time; a second either side),
    // `what` said in the status line, until Show all or another sandbox; a null `from`: all.
    void showChangedBetween(const QDateTime& from, const QDateTime& to, const QString& what);
    QAction* showAllAction() const { return m_showAll; }
    QAction* patchAction() const { return m_patch; }
    // The listed changes (as shown: the time window applies, the path filter does not) as one
    // patch in `file`: patchSaved() or message() with the reason.
    void savePatch(const QString& file);
    QAction* tarAction() const { return m_tar; }
    // The sandbox's changes against its template (caches left out while they are hidden) as a
    // tar in `file`: tarSaved() or message() with the reason. Triggering the action again while
    // it is saved cancels it.
    void saveTar(const QString& file);
    // The sandbox as a recipe in `folder` (with the files it copies), then opened in the
    // recipe editor: recipeOpened() or an error.
    void makeRecipe(const QString& folder);

signals:
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);
    void listed(); // a listing arrived (tests wait for it)
    void compared(const QString& path);
    void recipeOpened(QDialog* editor);
    void patchSaved(const QString& file, int files);
    void tarSaved(const QString& file, qint64 bytes);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void showSelected();
    // The paths of the expanded folders below `parent`, and expanding them again after a reset.
    void rememberExpanded(const QModelIndex& parent, QSet<QString>& paths) const;
    void restoreExpanded(const QSet<QString>& paths);
    void updateActions();
    void setStatus(const QString& text);
    const client::FileChange* selectedChange() const;
    // The listing cut to the time window, if one is set.
    client::SandboxChanges inWindow(const client::SandboxChanges& all) const;

    models::changes::ChangesSession* m_session;
    models::changes::ChangeTreeModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTreeView* m_view;
    DiffView* m_diff;
    QLineEdit* m_filter;
    QCheckBox* m_hideCaches;
    QComboBox* m_against;
    QLabel* m_status;
    QAction* m_refresh;
    QAction* m_revert;
    QAction* m_recipe;
    QAction* m_patch;
    QObject* m_patchMaker = nullptr; // the patch being made
    QAction* m_tar;
    QAction* m_showAll; // ends the time window
    QDateTime m_windowFrom, m_windowTo;
    QString m_windowWhat;
    bool m_listedOnce = false; // the first listing of a sandbox opens its top folders
    QTimer* m_poll;
    QElapsedTimer m_listing; // how long the pending listing takes
};

} // namespace lizard::ui::changes
