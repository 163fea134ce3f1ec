#pragma once
// The projects of the account as a list, with create / rename / delete. Answers are applied
// as minimal row changes, so a view keeps its selection across refreshes.

#include "client/outcome.h"
#include "client/pendingcall.h"

#include <QAbstractListModel>
#include <QPointer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class ProjectListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role { ProjectIdRole = Qt::UserRole + 1, SlugRole };

    explicit ProjectListModel(client::LizardApi* api, QObject* parent = nullptr);

    void refresh();
    void createProject(const QString& name);
    void renameProject(const QString& id, const QString& name);
    void deleteProject(const QString& id);

    int rowOf(const QString& projectId) const;
    // Row of the project named or slugged "default" (case-insensitive), else 0, -1 if empty.
    int defaultRow() const;
    const client::Project& projectAt(int row) const { return m_rows.at(row); }
    void applyProjects(const QList<client::Project>& fresh);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

signals:
    void refreshed();
    void projectCreated(const lizard::client::Project& project);
    void projectRenamed(const lizard::client::Project& project);
    void projectDeleted(const QString& projectId);
    void operationFailed(const lizard::client::ApiError& error);

private:
    void fail(client::ApiError error, const QString& what);

    QPointer<client::LizardApi> m_api;
    QList<client::Project> m_rows;
    QPointer<client::PendingCall> m_inFlight;
};

} // namespace lizard::models
