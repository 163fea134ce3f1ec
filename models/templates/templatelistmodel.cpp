#include "models/templates/templatelistmodel.h"

#include "client/lizardapi.h"
#include "models/sizeformat.h"
#include "models/timeformat.h"

namespace lizard::models {

using client::TemplateInfo;

namespace {

QString buildText(const client::TemplateBuild& b)
{
    const QString when = formatStarted(b.startedAt, QDateTime::currentDateTimeUtc());
    if (b.status == QLatin1String("building"))
        return QStringLiteral("building… (started %1)").arg(when);
    if (b.status == QLatin1String("failed")) {
        const QString step =
            b.failedStep ? QStringLiteral(" at step %1").arg(*b.failedStep + 1) : QString();
        return QStringLiteral("failed%1, %2").arg(step, when);
    }
    if (b.status == QLatin1String("succeeded"))
        return b.version ? QStringLiteral("built version %1, %2").arg(*b.version).arg(when)
                         : QStringLiteral("unchanged, %1").arg(when);
    return QStringLiteral("%1, %2").arg(b.status, when);
}

} // namespace

TemplateListModel::TemplateListModel(client::LizardApi* api, QObject* parent)
    : PolledListModel(api, TemplateColumn::Count, TemplateColumn::LastBuild, parent)
{
}

client::PendingCall* TemplateListModel::startFetch(const QString&, quint64 generation)
{
    return api()->listTemplates(this,
                                [this, generation](client::Outcome<QList<TemplateInfo>> outcome) {
                                    if (!fetchDone(generation, outcome ? nullptr : &outcome.error(),
                                                   QStringLiteral("List templates")))
                                        return;
                                    applyTemplates(outcome.value());
                                    emit refreshed();
                                });
}

void TemplateListModel::applyTemplates(const QList<TemplateInfo>& fresh)
{
    QList<TemplateRow> rows;
    for (const TemplateInfo& t : fresh)
        rows.append({t.name, t});
    applyItems(rows, [](const TemplateRow& a, const TemplateRow& b) {
        return changedColumns(a, b, TemplateColumn::Count, &TemplateListModel::cellText);
    });
}

QStringList TemplateListModel::creatableNames() const
{
    QStringList out;
    for (const TemplateRow& r : m_rows)
        if (r.info.available && (!r.info.recipe || r.info.latest))
            out << r.id;
    return out;
}

void TemplateListModel::deleteTemplate(const QString& name, QObject* ctx,
                                       client::Done<client::Unit> done)
{
    withActivity<client::Unit>(
        QStringLiteral("Delete template"), name, QStringLiteral("deleting…"), std::move(done),
        [&](client::LizardApi* api, const QString&, auto finished) {
            api->deleteTemplate(name, ctx, finished);
        },
        false);
}

QString TemplateListModel::cellText(const TemplateRow& row, int column)
{
    const TemplateInfo& t = row.info;
    switch (column) {
    case TemplateColumn::Name:
        return t.name;
    case TemplateColumn::Kind:
        return t.recipe ? QStringLiteral("recipe, from %1")
                              .arg(t.base.isEmpty() ? QStringLiteral("?") : t.base)
                        : QStringLiteral("built in");
    case TemplateColumn::Latest:
        if (!t.recipe)
            return QStringLiteral("—");
        if (!t.latest)
            return QStringLiteral("none yet");
        return t.versions.size() == 1 ? QStringLiteral("%1:%2").arg(t.name).arg(*t.latest)
                                      : QStringLiteral("%1:%2 (of %3 versions)")
                                            .arg(t.name)
                                            .arg(*t.latest)
                                            .arg(t.versions.size());
    case TemplateColumn::Size:
        if (!t.recipe || t.versions.isEmpty())
            return QStringLiteral("—");
        return formatBytes(t.versions.last().sizeBytes);
    case TemplateColumn::LastBuild:
        return t.lastBuild ? buildText(*t.lastBuild) : QStringLiteral("—");
    case TemplateColumn::Pool:
        return t.poolSize > 0 ? QStringLiteral("%1 of %2 ready").arg(t.readyCount).arg(t.poolSize)
                              : QStringLiteral("none");
    default:
        return {};
    }
}

QVariant TemplateListModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const TemplateRow& r = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return displayText(r, index.column(), cellText(r, index.column()));
    case Qt::ToolTipRole:
        if (index.column() == TemplateColumn::LastBuild && r.info.lastBuild &&
            !r.info.lastBuild->error.isEmpty())
            return r.info.lastBuild->error;
        return {};
    case NameRole:
        return r.id;
    case RecipeRole:
        return r.info.recipeText;
    case BuildStatusRole:
        return r.info.lastBuild ? r.info.lastBuild->status : QString();
    default:
        return {};
    }
}

QVariant TemplateListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TemplateColumn::Name:
        return QStringLiteral("Template");
    case TemplateColumn::Kind:
        return QStringLiteral("Kind");
    case TemplateColumn::Latest:
        return QStringLiteral("Latest");
    case TemplateColumn::Size:
        return QStringLiteral("Size");
    case TemplateColumn::LastBuild:
        return QStringLiteral("Last build");
    case TemplateColumn::Pool:
        return QStringLiteral("Warm copies");
    default:
        return {};
    }
}

} // namespace lizard::models
