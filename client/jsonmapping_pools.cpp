// JSON of lizard-local's template pools (GET|PATCH /api/templates).
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

namespace {

TemplatePool templatePool(const Json& j)
{
    const JsonReader r(j, QStringLiteral("template"));
    TemplatePool t;
    t.name = r.requiredString("name");
    t.poolSize = int(r.integer("poolSize"));
    t.requestedPoolSize = int(r.integer("requestedPoolSize"));
    t.readyCount = int(r.integer("readyCount"));
    t.poolError = r.string("poolError");
    return t;
}

} // namespace

Outcome<TemplatePool> parseTemplatePool(const QByteArray& body, const QString& what)
{
    return parseWith<TemplatePool>(body, what, templatePool);
}

Outcome<QList<TemplatePool>> parseTemplatePools(const QByteArray& body, const QString& what)
{
    return parseWith<QList<TemplatePool>>(body, what, [](const Json& j) {
        return listOf<TemplatePool>(j, "templates", templatePool);
    });
}

} // namespace lizard::client
