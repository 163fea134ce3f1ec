#pragma once
// The Changes tab's tree: what a sandbox added, modified and deleted against its template
// (client::SandboxChanges), as folders and files. Directories the sandbox did not change
// themselves but that hold changes appear as plain folders (no badge); each node counts the
// changes below it. Built once per listing: 100,000 changes make a tree in a fraction of a
// second, and the view asks only for what it shows.

#include "client/types.h"

#include <QAbstractItemModel>
#include <QHash>
#include <vector>

namespace lizard::models::changes {

class ChangeTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, ChangeColumn, SizeColumn, ColumnCount };
    enum Role {
        PathRole = Qt::UserRole + 1, // the full path in the sandbox
        KindRole,                    // added, modified, deleted; empty for a plain folder
        TypeRole,                    // file, dir, symlink, other
        SortRole,
    };

    explicit ChangeTreeModel(QObject* parent = nullptr);

    void setChanges(const client::SandboxChanges& changes);
    // Whether `changes` lists exactly what the model shows (a new listing that needs no reset).
    bool sameAs(const client::SandboxChanges& changes) const;
    const client::SandboxChanges& changes() const { return m_changes; }
    // How many of the listing's changes are of `kind`.
    int count(const QString& kind) const;
    // The change at `path`; null when the path is a plain folder or unknown.
    const client::FileChange* change(const QString& path) const;
    QModelIndex indexOf(const QString& path) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Node
    {
        QString name;
        int parent = -1;
        int row = 0;     // among the parent's children
        int change = -1; // into m_changes.changes, or -1: a plain folder
        int below = 0;   // changes in the subtree, itself excluded
        std::vector<int> children;
    };
    int nodeOf(const QModelIndex& index) const;
    // The node of `path` ("/a/b"), made with its missing ancestors.
    int nodeFor(const QString& path);
    QString pathOf(int node) const;

    client::SandboxChanges m_changes;
    std::vector<Node> m_nodes;    // [0]: the root "/"
    QHash<QString, int> m_byPath; // every node but the root, by its path
};

} // namespace lizard::models::changes
