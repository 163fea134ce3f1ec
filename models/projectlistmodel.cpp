#include "models/projectlistmodel.h"

#include "client/lizardapi.h"

#include <QSet>

namespace lizard::models {

using client::Project;

ProjectListModel::ProjectListModel(client::LizardApi* api, QObject* parent)
    : QAbstractListModel(parent), m_api(api)
{
}

void ProjectListModel::fail(client::ApiError error, const QString& what)
{
    if (error.what.isEmpty())
        error.what = what;
    emit operationFailed(error);
}

void ProjectListModel::refresh()
{
    if (m_api == nullptr || m_inFlight)
        return;
    m_inFlight = m_api->listProjects(this, [this](auto outcome) {
        m_inFlight = nullptr;
        if (!outcome) {
            fail(outcome.error(), QStringLiteral("List projects"));
            return;
        }
        applyProjects(outcome.value());
        emit refreshed();
    });
}

void ProjectListModel::createProject(const QString& name)
{
    if (m_api == nullptr)
        return;
    m_api->createProject(name.trimmed(), this, [this, name](auto outcome) {
        if (!outcome) {
            fail(outcome.error(), QStringLiteral("Create project \"%1\"").arg(name));
            return;
        }
        const Project created = outcome.value();
        if (rowOf(created.id) < 0) {
            beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
            m_rows.append(created);
            endInsertRows();
        }
        emit projectCreated(created);
    });
}

void ProjectListModel::renameProject(const QString& id, const QString& name)
{
    if (m_api == nullptr)
        return;
    m_api->renameProject(id, name.trimmed(), this, [this, name](auto outcome) {
        if (!outcome) {
            fail(outcome.error(), QStringLiteral("Rename project to \"%1\"").arg(name));
            return;
        }
        const Project renamed = outcome.value();
        const int row = rowOf(renamed.id);
        if (row >= 0) {
            m_rows[row] = renamed;
            emit dataChanged(index(row), index(row));
        }
        emit projectRenamed(renamed);
    });
}

void ProjectListModel::deleteProject(const QString& id)
{
    if (m_api == nullptr)
        return;
    m_api->deleteProject(id, this, [this, id](auto outcome) {
        if (!outcome) {
            const int row = rowOf(id);
            const QString name = row >= 0 ? m_rows.at(row).name : id;
            fail(outcome.error(), QStringLiteral("Delete project \"%1\"").arg(name));
            return;
        }
        const int row = rowOf(id);
        if (row >= 0) {
            beginRemoveRows({}, row, row);
            m_rows.removeAt(row);
            endRemoveRows();
        }
        emit projectDeleted(id);
    });
}

void ProjectListModel::applyProjects(const QList<Project>& fresh)
{
    QSet<QString> freshIds;
    for (const auto& p : fresh)
        freshIds.insert(p.id);
    for (int row = int(m_rows.size()) - 1; row >= 0; --row) {
        if (!freshIds.contains(m_rows.at(row).id)) {
            beginRemoveRows({}, row, row);
            m_rows.removeAt(row);
            endRemoveRows();
        }
    }
    for (const auto& p : fresh) {
        const int row = rowOf(p.id);
        if (row < 0) {
            beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
            m_rows.append(p);
            endInsertRows();
        } else if (m_rows.at(row).name != p.name || m_rows.at(row).slug != p.slug) {
            m_rows[row] = p;
            emit dataChanged(index(row), index(row));
        }
    }
}

int ProjectListModel::rowOf(const QString& projectId) const
{
    for (int row = 0; row < m_rows.size(); ++row)
        if (m_rows.at(row).id == projectId)
            return row;
    return -1;
}

int ProjectListModel::defaultRow() const
{
    for (int row = 0; row < m_rows.size(); ++row) {
        const Project& p = m_rows.at(row);
        if (p.slug.compare(QLatin1String("default"), Qt::CaseInsensitive) == 0 ||
            p.name.compare(QLatin1String("default"), Qt::CaseInsensitive) == 0)
            return row;
    }
    return m_rows.isEmpty() ? -1 : 0;
}

int ProjectListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant ProjectListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Project& p = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return p.name;
    case Qt::ToolTipRole:
        return QStringLiteral("%1 (%2)").arg(p.name, p.id);
    case ProjectIdRole:
        return p.id;
    case SlugRole:
        return p.slug;
    default:
        return {};
    }
}

} // namespace lizard::models
