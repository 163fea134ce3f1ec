#pragma once
// A sandbox's files as a lazy tree: a directory is listed (GET .../files/list) only when a view
// asks for its rows (canFetchMore/fetchMore), and all its entries arrive in one row insert, so
// a directory of 10,000 entries costs one layout pass. refresh() re-lists what is shown and
// applies the difference (removed rows, changed rows, new rows) so expanded folders stay open.
// A symlink is probed after its folder is listed (stat of "link/." follows it): one that leads
// to a folder then lists, sorts and expands as a folder, still typed "symlink".

#include "client/outcome.h"

#include <QAbstractItemModel>
#include <QHash>
#include <QPointer>
#include <deque>
#include <memory>
#include <vector>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models::files {

class SandboxFileModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column { NameColumn, SizeColumn, ModifiedColumn, PermissionsColumn, ColumnCount };
    enum Role {
        PathRole = Qt::UserRole + 1,
        TypeRole,
        IsDirRole,
        SortRole,
        SizeRole,
        ModifiedRole
    };

    explicit SandboxFileModel(client::LizardApi* api, QObject* parent = nullptr);
    ~SandboxFileModel() override;

    // Shows path of sandboxId (empty id: nothing). Resets the model; the root is listed lazily.
    void setLocation(const QString& sandboxId, const QString& rootPath);
    QString sandboxId() const { return m_sandboxId; }
    QString rootPath() const;

    client::FileEntry entry(const QModelIndex& index) const; // invalid index: the root
    // The sort order of column (folders are not put first here): <0, 0 or >0 when a sorts
    // before, with, or after b; names compare case-insensitively. For FileSortProxy, which
    // sorts 10,000 rows without a QVariant per comparison.
    int compare(const QModelIndex& a, const QModelIndex& b, int column) const;
    bool isDir(const QModelIndex& index) const;
    QModelIndex indexForPath(const QString& path) const; // only if already listed
    bool isListing(const QModelIndex& dir) const;
    bool isListed(const QModelIndex& dir) const;

    // Re-lists dir (invalid: the root) and every listed folder below it.
    void refresh(const QModelIndex& dir = {});
    // Re-lists the folder at path if it is shown or being listed (after the app's own changes);
    // false if not.
    bool refreshPath(const QString& dirPath);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;

    static QString formatSize(qint64 bytes);

    // A folder's fresh listing, sorted and indexed by name off the event loop.
    struct Listed
    {
        client::FileEntry entry;
        QString key; // the name, lower case
    };
    struct Listing
    {
        std::vector<Listed> items;
        QHash<QString, size_t> index;
    };

signals:
    void directoryListed(const QString& path, int entries);
    void listFailed(const QString& path, const lizard::client::ApiError& error);

private:
    struct Node;
    Node* nodeOf(const QModelIndex& index) const;
    QModelIndex indexOf(Node* node, int column = 0) const;
    Node* findNode(const QString& path) const;
    void list(Node* node);
    void finishListing(quint64 generation, const QString& path, const client::ApiError* error,
                       std::shared_ptr<Listing> listing);
    void applyListing(Node* node, Listing listing);
    void removeChildren(Node* node, const std::vector<int>& rows);
    void renumber(Node* node, int from);
    // Symlinks (sandboxfilemodel_links.cpp): which ones lead to folders.
    void probeLinks(Node* dir);
    void startLinkProbes();
    void setLinkKind(const QString& path, bool toDir);

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    std::unique_ptr<Node> m_root;
    quint64 m_generation = 0;
    std::deque<QString> m_linkProbes; // symlink paths waiting for a probe
    int m_probesInFlight = 0;
};

} // namespace lizard::models::files
