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

int ChangeTreeModel::childNamed(int parent, const QString& name)
{
    // The listing gives a directory before what is below it and its entries one after the
    // other, so nearly every lookup is the last child; the scan is for paths given out of order.
    const auto& kids = m_nodes[std::size_t(parent)].children;
    if (!kids.empty() && m_nodes[std::size_t(kids.back())].name == name)
        return kids.back();
    for (int k : kids) {
        if (m_nodes[std::size_t(k)].name == name)
            return k;
    }
    Node n;
    n.name = name;
    n.parent = parent;
    n.row = int(kids.size());
    m_nodes.push_back(std::move(n));
    const int id = int(m_nodes.size()) - 1;
    m_nodes[std::size_t(parent)].children.push_back(id);
    return id;
}

void ChangeTreeModel::setChanges(const client::SandboxChanges& changes)
{
    beginResetModel();
    m_changes = changes;
    m_nodes.clear();
    m_nodes.push_back(Node{QStringLiteral("/")});
    for (int i = 0; i < m_changes.changes.size(); ++i) {
        const QStringList parts =
            m_changes.changes[i].path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
        int node = 0;
        for (const QString& part : parts) {
            ++m_nodes[std::size_t(node)].below;
            node = childNamed(node, part);
        }
        m_nodes[std::size_t(node)].change = i;
    }
    endResetModel();
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
    int node = 0;
    for (const QString& part : path.split(QLatin1Char('/'), Qt::SkipEmptyParts)) {
        int next = -1;
        for (int k : m_nodes[std::size_t(node)].children) {
            if (m_nodes[std::size_t(k)].name == part) {
                next = k;
                break;
            }
        }
        if (next < 0)
            return {};
        node = next;
    }
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
