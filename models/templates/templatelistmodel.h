#pragma once
// The templates a sandbox can start from, as a table: the built-in ones and the ones built here
// from recipes (name, what it is, latest version, size, last build, warm copies). Polled like
// the other tables; a build started from the app shows "building" at once. Not per project:
// templates are the server's.

#include "client/templatetypes.h"
#include "models/polledlistmodel.h"

namespace lizard::models {

namespace TemplateColumn {
enum : int { Name, Kind, Latest, Size, LastBuild, Pool, Count };
}

// A row: the template and its name as the key the polled tables use.
struct TemplateRow
{
    QString id; // the template's name
    client::TemplateInfo info;
};

class TemplateListModel : public PolledListModel<TemplateRow>
{
    Q_OBJECT
public:
    enum Role { NameRole = Qt::UserRole + 1, RecipeRole, BuildStatusRole };

    explicit TemplateListModel(client::LizardApi* api, QObject* parent = nullptr);

    const client::TemplateInfo& templateAt(int row) const { return itemAt(row).info; }
    void applyTemplates(const QList<client::TemplateInfo>& fresh);
    // The names a create may use: the built-in ones and every recipe template with a version.
    QStringList creatableNames() const;

    void deleteTemplate(const QString& name, QObject* ctx, client::Done<client::Unit> done);

    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString cellText(const TemplateRow& row, int column);

protected:
    client::PendingCall* startFetch(const QString& projectId, quint64 generation) override;
};

} // namespace lizard::models
