#include "models/changes/changetreemodel.h"

#include "models/sizeformat.h"

namespace lizard::models::changes {

namespace {

QString kindLabel(const QString& kind)
{
    if (kind == QLatin1String("added"))
        return QStringLiteral("Added");
    if (kind == QLatin1String("deleted"))
        return QStringLiteral("Deleted");
    if (kind == QLatin1String("modified"))
        return QStringLiteral("Modified");
    return {};
}

QString typeLabel(const QString& type)
{
    if (type == QLatin1String("dir"))
        return QStringLiteral("folder");
    if (type == QLatin1String("symlink"))
        return QStringLiteral("link");
    return type;
}

} // namespace

ChangeTreeModel::ChangeTreeModel(QObject* parent) : QAbstractItemModel(parent)
{
    m_nodes.push_back(Node{QStringLiteral("/")});
}

int ChangeTreeModel::nodeFor(const QString& path)
{
    if (const auto it = m_byPath.constFind(path); it != m_byPath.cend())
        return *it;
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    const int parent = slash <= 0 ? 0 : nodeFor(path.left(slash));
    Node n;
    n.name = path.mid(slash + 1);
    n.parent = parent;
    n.row = int(m_nodes[std::size_t(parent)].children.size());
    m_nodes.push_back(std::move(n));
    const int id = int(m_nodes.size()) - 1;
    m_nodes[std::size_t(parent)].children.push_back(id);
    m_byPath.insert(path, id);
    return id;
}

void ChangeTreeModel::setChanges(const client::SandboxChanges& changes)
{
    beginResetModel();
    m_changes = changes;
    m_nodes.clear();
    m_nodes.push_back(Node{QStringLiteral("/")});
    m_byPath.clear();
    m_byPath.reserve(m_changes.changes.size());
    for (int i = 0; i < m_changes.changes.size(); ++i) {
        const int node = nodeFor(m_changes.changes[i].path);
        m_nodes[std::size_t(node)].change = i;
        for (int up = m_nodes[std::size_t(node)].parent; up >= 0;
             up = m_nodes[std::size_t(up)].parent)
            ++m_nodes[std::size_t(up)].below;
    }
    endResetModel();
}

bool ChangeTreeModel::sameAs(const client::SandboxChanges& changes) const
{
    const auto& mine = m_changes.changes;
    const auto& theirs = changes.changes;
    if (changes.truncated != m_changes.truncated ||
        changes.templateName != m_changes.templateName || theirs.size() != mine.size())
        return false;
    for (qsizetype i = 0; i < mine.size(); ++i) {
        const client::FileChange &a = mine[i], &b = theirs[i];
        if (a.path != b.path || a.kind != b.kind || a.type != b.type || a.was != b.was ||
            a.size != b.size || a.mode != b.mode)
            return false;
    }
    return true;
}

int ChangeTreeModel::count(const QString& kind) const
{
    int n = 0;
    for (const auto& c : m_changes.changes)
        n += c.kind == kind ? 1 : 0;
    return n;
}

QString ChangeTreeModel::pathOf(int node) const
{
    QStringList parts;
    for (int n = node; n > 0; n = m_nodes[std::size_t(n)].parent)
        parts.prepend(m_nodes[std::size_t(n)].name);
    return QLatin1Char('/') + parts.join(QLatin1Char('/'));
}

const client::FileChange* ChangeTreeModel::change(const QString& path) const
{
    const QModelIndex i = indexOf(path);
    const int node = i.isValid() ? nodeOf(i) : -1;
    if (node <= 0 || m_nodes[std::size_t(node)].change < 0)
        return nullptr;
    return &m_changes.changes[m_nodes[std::size_t(node)].change];
}

QModelIndex ChangeTreeModel::indexOf(const QString& path) const
{
    const int node = m_byPath.value(path, 0);
    return node == 0 ? QModelIndex() : createIndex(m_nodes[std::size_t(node)].row, 0, node);
}

int ChangeTreeModel::nodeOf(const QModelIndex& index) const
{
    return index.isValid() ? int(index.internalId()) : 0;
}

QModelIndex ChangeTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    const int p = nodeOf(parent);
    const auto& kids = m_nodes[std::size_t(p)].children;
    if (row < 0 || row >= int(kids.size()) || column < 0 || column >= ColumnCount)
        return {};
    return createIndex(row, column, kids[std::size_t(row)]);
}

QModelIndex ChangeTreeModel::parent(const QModelIndex& child) const
{
    const int n = nodeOf(child);
    if (n <= 0)
        return {};
    const int p = m_nodes[std::size_t(n)].parent;
    return p <= 0 ? QModelIndex() : createIndex(m_nodes[std::size_t(p)].row, 0, p);
}

int ChangeTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.column() > 0)
        return 0;
    return int(m_nodes[std::size_t(nodeOf(parent))].children.size());
}

int ChangeTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

QVariant ChangeTreeModel::data(const QModelIndex& index, int role) const
{
    const int n = nodeOf(index);
    if (n <= 0)
        return {};
    const Node& node = m_nodes[std::size_t(n)];
    const client::FileChange* c = node.change >= 0 ? &m_changes.changes[node.change] : nullptr;
    switch (role) {
    case PathRole:
        return pathOf(n);
    case KindRole:
        return c ? c->kind : QString();
    case TypeRole:
        return c ? c->type : QStringLiteral("dir");
    case SortRole:
        if (index.column() == SizeColumn)
            return c ? c->size : 0;
        if (index.column() == ChangeColumn)
            return c ? c->kind : QString();
        return node.name;
    case Qt::ToolTipRole:
        if (!c)
            return QStringLiteral("%1: %2 change(s) below").arg(pathOf(n)).arg(node.below);
        return QStringLiteral("%1\n%2 %3%4, mode %5")
            .arg(c->path, kindLabel(c->kind), typeLabel(c->type),
                 c->was.isEmpty() ? QString()
                                  : QStringLiteral(" (was a %1)").arg(typeLabel(c->was)))
            .arg(c->mode, 4, 8, QLatin1Char('0'));
    case Qt::DisplayRole:
        switch (index.column()) {
        case NameColumn:
            return node.name;
        case ChangeColumn:
            if (!c)
                return node.below > 0 ? QStringLiteral("%1 inside").arg(node.below) : QString();
            return node.below > 0
                       ? QStringLiteral("%1, %2 inside").arg(kindLabel(c->kind)).arg(node.below)
                       : kindLabel(c->kind);
        case SizeColumn:
            if (!c || c->type == QLatin1String("dir"))
                return {};
            return formatBytes(c->size);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant ChangeTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return QStringLiteral("Path");
    case ChangeColumn:
        return QStringLiteral("Change");
    case SizeColumn:
        return QStringLiteral("Size");
    default:
        return {};
    }
}

} // namespace lizard::models::changes
