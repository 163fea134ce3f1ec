#include "models/files/sandboxfilemodel.h"

#include "client/lizardapi.h"
#include "client/offthread.h"
#include "models/files/remotepath.h"
#include "models/files/sandboxfilemodel_node.h"

#include <QHash>
#include <algorithm>

namespace lizard::models::files {

namespace {

using Listed = SandboxFileModel::Listed;

bool listedLess(const Listed& a, const Listed& b)
{
    const bool aDir = a.entry.type == QLatin1String("dir");
    const bool bDir = b.entry.type == QLatin1String("dir");
    if (aDir != bDir)
        return aDir;
    const int c = a.key.compare(b.key);
    return c != 0 ? c < 0 : a.entry.name < b.entry.name;
}

bool sameEntry(const client::FileEntry& a, const client::FileEntry& b)
{
    return a.size == b.size && a.modifiedAt == b.modifiedAt && a.permissions == b.permissions &&
           a.mode == b.mode && a.owner == b.owner && a.group == b.group &&
           a.symlinkTarget == b.symlinkTarget;
}

// On a pool thread: sort keys, the order rows are added in, and an index by name.
std::shared_ptr<SandboxFileModel::Listing> prepareListing(const QList<client::FileEntry>& entries)
{
    auto listing = std::make_shared<SandboxFileModel::Listing>();
    std::vector<Listed>& items = listing->items;
    items.reserve(size_t(entries.size()));
    for (const auto& e : entries)
        items.push_back({e, e.name.toLower()});
    std::sort(items.begin(), items.end(), listedLess);
    listing->index.reserve(qsizetype(items.size()));
    for (size_t i = 0; i < items.size(); ++i)
        listing->index.insert(items[i].entry.name, i);
    return listing;
}

} // namespace

SandboxFileModel::SandboxFileModel(client::LizardApi* api, QObject* parent)
    : QAbstractItemModel(parent), m_api(api), m_root(std::make_unique<Node>())
{
    m_root->entry.type = QStringLiteral("dir");
    m_root->entry.path = QStringLiteral("/");
}

SandboxFileModel::~SandboxFileModel() = default;

void SandboxFileModel::setLocation(const QString& sandboxId, const QString& rootPath)
{
    beginResetModel();
    ++m_generation; // answers for the old location are dropped
    m_sandboxId = sandboxId;
    m_linkProbes.clear();
    m_probesInFlight = 0; // probes still in flight belong to the old generation
    m_root = std::make_unique<Node>();
    m_root->entry.type = QStringLiteral("dir");
    m_root->entry.path = RemotePath::clean(rootPath);
    m_root->entry.name = RemotePath::fileName(m_root->entry.path);
    endResetModel();
}

QString SandboxFileModel::rootPath() const
{
    return m_root->entry.path;
}

SandboxFileModel::Node* SandboxFileModel::nodeOf(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : m_root.get();
}

QModelIndex SandboxFileModel::indexOf(Node* node, int column) const
{
    if (node == nullptr || node == m_root.get())
        return {};
    return createIndex(node->row, column, node);
}

client::FileEntry SandboxFileModel::entry(const QModelIndex& index) const
{
    return nodeOf(index)->entry;
}
bool SandboxFileModel::isDir(const QModelIndex& index) const
{
    return nodeOf(index)->isDir();
}

int SandboxFileModel::compare(const QModelIndex& a, const QModelIndex& b, int column) const
{
    const Node* x = nodeOf(a);
    const Node* y = nodeOf(b);
    const auto three = [](auto l, auto r) { return l < r ? -1 : r < l ? 1 : 0; };
    switch (column) {
    case SizeColumn:
        return three(x->isDir() ? qint64(-1) : x->entry.size,
                     y->isDir() ? qint64(-1) : y->entry.size);
    case ModifiedColumn:
        return three(x->entry.modifiedAt.isValid() ? x->entry.modifiedAt.toMSecsSinceEpoch() : 0,
                     y->entry.modifiedAt.isValid() ? y->entry.modifiedAt.toMSecsSinceEpoch() : 0);
    case PermissionsColumn: {
        const QString& l = x->entry.permissions.isEmpty() ? x->entry.mode : x->entry.permissions;
        const QString& r = y->entry.permissions.isEmpty() ? y->entry.mode : y->entry.permissions;
        return l.compare(r);
    }
    default: {
        const int c = x->sortKey.compare(y->sortKey);
        return c != 0 ? c : x->entry.name.compare(y->entry.name);
    }
    }
}

SandboxFileModel::Node* SandboxFileModel::findNode(const QString& path) const
{
    const QString clean = RemotePath::clean(path);
    const QString root = m_root->entry.path;
    if (clean == root)
        return m_root.get();
    if (!RemotePath::isInside(clean, root))
        return nullptr;
    const QString rest = clean.mid(root == QLatin1String("/") ? 1 : root.size() + 1);
    Node* node = m_root.get();
    for (const QString& name : rest.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        const auto it = std::find_if(node->children.begin(), node->children.end(),
                                     [&name](const auto& c) { return c->entry.name == name; });
        if (it == node->children.end())
            return nullptr;
        node = it->get();
    }
    return node;
}

QModelIndex SandboxFileModel::indexForPath(const QString& path) const
{
    return indexOf(findNode(path));
}

bool SandboxFileModel::isListing(const QModelIndex& dir) const
{
    return nodeOf(dir)->listing;
}
bool SandboxFileModel::isListed(const QModelIndex& dir) const
{
    return nodeOf(dir)->listed;
}

void SandboxFileModel::refresh(const QModelIndex& dir)
{
    std::vector<Node*> todo{nodeOf(dir)};
    while (!todo.empty()) {
        Node* node = todo.back();
        todo.pop_back();
        if (node->listed || node == nodeOf(dir))
            list(node);
        for (const auto& child : node->children)
            if (child->listed)
                todo.push_back(child.get());
    }
}

bool SandboxFileModel::refreshPath(const QString& dirPath)
{
    Node* node = findNode(dirPath);
    // A folder whose first listing is on its way is listed again when that one is in: the
    // change (an upload that just ended) may have come after the server read the folder.
    if (node == nullptr || !node->isDir() || !(node->listed || node->listing))
        return false;
    list(node);
    return true;
}

void SandboxFileModel::list(Node* node)
{
    if (m_api == nullptr || m_sandboxId.isEmpty() || !node->isDir())
        return;
    if (node->listing) {
        node->listAgain = true;
        return;
    }
    node->listing = true;
    node->failed = false;
    const quint64 generation = m_generation;
    const QString path = node->entry.path;
    m_api->listDir(m_sandboxId, path, this,
                   [this, generation, path](client::Outcome<QList<client::FileEntry>> r) {
                       if (generation != m_generation)
                           return;
                       if (!r)
                           return finishListing(generation, path, &r.error(), nullptr);
                       // Sorting and indexing 10,000 entries would hold the event loop: a pool
                       // thread does it (a folder that changes all the time is listed again and
                       // again).
                       client::runOffThread<std::shared_ptr<Listing>>(
                           this,
                           [entries = std::move(r.value())] { return prepareListing(entries); },
                           [this, generation, path](std::shared_ptr<Listing> listing) {
                               finishListing(generation, path, nullptr, std::move(listing));
                           });
                   });
}

void SandboxFileModel::finishListing(quint64 generation, const QString& path,
                                     const client::ApiError* error,
                                     std::shared_ptr<Listing> listing)
{
    if (generation != m_generation)
        return;
    Node* n = findNode(path);
    if (n == nullptr || !n->isDir())
        return; // removed by a refresh of its parent meanwhile
    n->listing = false;
    if (error != nullptr) {
        n->failed = true;
        emit listFailed(path, *error);
    } else {
        applyListing(n, std::move(*listing));
        emit directoryListed(path, int(n->children.size()));
        probeLinks(n);
    }
    if (std::exchange(n->listAgain, false))
        list(n);
}

void SandboxFileModel::applyListing(Node* node, Listing listing)
{
    std::vector<Listed>& items = listing.items;
    const QHash<QString, size_t>& fresh = listing.index;
    const QModelIndex parentIndex = indexOf(node);
    node->listed = true;

    // Rows that are gone (or changed between file and folder) leave first.
    std::vector<int> gone;
    std::vector<bool> kept(items.size(), false);
    int firstChanged = -1;
    int lastChanged = -1;
    for (const auto& child : node->children) {
        const auto it = fresh.constFind(child->entry.name);
        if (it == fresh.cend() || items[*it].entry.type != child->entry.type) {
            gone.push_back(child->row);
        } else {
            kept[*it] = true;
            if (!sameEntry(child->entry, items[*it].entry)) {
                child->entry = items[*it].entry;
                firstChanged = firstChanged < 0 ? child->row : firstChanged;
                lastChanged = child->row;
            }
        }
    }
    // One signal for all changed rows: 10,000 files written at once would otherwise cost the
    // sort proxy and the view 10,000 separate updates (rows in between are unchanged, and
    // reading them again is cheap). A kept row has its name and type, so the name column is
    // the same: leaving it out spares a proxy sorted by name a re-sort of the whole folder.
    if (firstChanged >= 0)
        emit dataChanged(index(firstChanged, SizeColumn, parentIndex),
                         index(lastChanged, ColumnCount - 1, parentIndex));
    removeChildren(node, gone);

    // New entries arrive in one insert, however many there are.
    std::vector<std::unique_ptr<Node>> added;
    for (size_t i = 0; i < items.size(); ++i) {
        if (kept[i])
            continue;
        auto child = std::make_unique<Node>();
        child->entry = std::move(items[i].entry);
        child->sortKey = std::move(items[i].key);
        child->parent = node;
        added.push_back(std::move(child));
    }
    if (added.empty())
        return;
    const int first = int(node->children.size());
    beginInsertRows(parentIndex, first, first + int(added.size()) - 1);
    for (auto& child : added) {
        child->row = int(node->children.size());
        node->children.push_back(std::move(child));
    }
    endInsertRows();
}

void SandboxFileModel::removeChildren(Node* node, const std::vector<int>& rows)
{
    if (rows.empty())
        return;
    const QModelIndex parentIndex = indexOf(node);
    // rows ascend; remove contiguous runs from the end so earlier row numbers stay valid.
    size_t end = rows.size();
    while (end > 0) {
        size_t begin = end - 1;
        while (begin > 0 && rows[begin - 1] == rows[begin] - 1)
            --begin;
        const int first = rows[begin];
        const int last = rows[end - 1];
        beginRemoveRows(parentIndex, first, last);
        node->children.erase(node->children.begin() + first, node->children.begin() + last + 1);
        renumber(node, first);
        endRemoveRows();
        end = begin;
    }
}

void SandboxFileModel::renumber(Node* node, int from)
{
    for (int i = from; i < int(node->children.size()); ++i)
        node->children[size_t(i)]->row = i;
}

QModelIndex SandboxFileModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column < 0 || column >= ColumnCount || parent.column() > 0)
        return {};
    Node* p = nodeOf(parent);
    if (row < 0 || row >= int(p->children.size()))
        return {};
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex SandboxFileModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    return indexOf(nodeOf(child)->parent);
}

int SandboxFileModel::rowCount(const QModelIndex& parent) const
{
    return parent.column() > 0 ? 0 : int(nodeOf(parent)->children.size());
}

int SandboxFileModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

bool SandboxFileModel::hasChildren(const QModelIndex& parent) const
{
    if (parent.column() > 0)
        return false;
    const Node* n = nodeOf(parent);
    return n->isDir() && (!n->listed || !n->children.empty());
}

bool SandboxFileModel::canFetchMore(const QModelIndex& parent) const
{
    if (parent.column() > 0 || m_sandboxId.isEmpty())
        return false;
    const Node* n = nodeOf(parent);
    return n->isDir() && !n->listed && !n->listing && !n->failed;
}

void SandboxFileModel::fetchMore(const QModelIndex& parent)
{
    if (canFetchMore(parent))
        list(nodeOf(parent));
}

Qt::ItemFlags SandboxFileModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (!nodeOf(index)->isDir())
        f |= Qt::ItemNeverHasChildren;
    return f;
}

} // namespace lizard::models::files
