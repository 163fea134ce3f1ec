// JSON of templates built from recipes (GET|POST /api/templates, a lizard-local extension).
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

namespace {

std::optional<int> optionalInt(const JsonReader& r, const char* key)
{
    if (!r.has(key))
        return std::nullopt;
    return int(r.integer(key));
}

TemplateBuild build(const Json& j)
{
    const JsonReader r(j, QStringLiteral("build"));
    TemplateBuild b;
    b.id = r.requiredString("id");
    b.name = r.string("name");
    b.status = r.string("status");
    b.steps = int(r.integer("steps"));
    b.cachedSteps = int(r.integer("cachedSteps"));
    b.failedStep = optionalInt(r, "failedStep");
    b.exitCode = optionalInt(r, "exitCode");
    b.version = optionalInt(r, "version");
    b.error = r.string("error");
    b.startedAt = r.time("startedAt");
    if (r.has("endedAt"))
        b.endedAt = r.time("endedAt");
    b.durationMs = r.integer("durationMs");
    return b;
}

TemplateVersion version(const Json& j)
{
    const JsonReader r(j, QStringLiteral("version"));
    TemplateVersion v;
    v.version = int(r.integer("version"));
    v.tag = r.string("tag");
    v.snapshotId = r.string("snapshotId");
    v.sizeBytes = r.integer("sizeBytes");
    v.createdAt = r.time("createdAt");
    return v;
}

TemplateInfo templateInfo(const Json& j)
{
    const JsonReader r(j, QStringLiteral("template"));
    TemplateInfo t;
    t.name = r.requiredString("name");
    t.recipe = r.string("kind") == QLatin1String("recipe");
    t.base = t.recipe ? r.string("base") : t.name;
    t.latest = optionalInt(r, "latest");
    if (const Json* list = r.find("versions"))
        t.versions = listOf<TemplateVersion>(*list, "versions", version);
    t.recipeText = r.string("recipe");
    if (const Json* last = r.find("lastBuild"))
        t.lastBuild = build(*last);
    if (const Json* list = r.find("builds"))
        t.builds = listOf<TemplateBuild>(*list, "builds", build);
    t.building = r.boolean("building", false);
    t.available = r.boolean("available", true);
    t.unavailableReason = r.string("unavailableReason");
    t.poolSize = int(r.integer("poolSize"));
    t.readyCount = int(r.integer("readyCount"));
    return t;
}

RecipeCheckStep checkStep(const Json& j)
{
    const JsonReader r(j, QStringLiteral("step"));
    return {r.string("kind"), int(r.integer("line")), r.string("label")};
}

QString fileSource(const Json& j)
{
    return JsonReader(j, QStringLiteral("file")).string("source");
}

} // namespace

Outcome<QList<TemplateInfo>> parseTemplates(const QByteArray& body, const QString& what)
{
    return parseWith<QList<TemplateInfo>>(body, what, [](const Json& j) {
        return listOf<TemplateInfo>(j, "templates", templateInfo);
    });
}

Outcome<TemplateInfo> parseTemplateInfo(const QByteArray& body, const QString& what)
{
    return parseWith<TemplateInfo>(body, what, templateInfo);
}

Outcome<TemplateBuild> parseTemplateBuild(const QByteArray& body, const QString& what)
{
    return parseWith<TemplateBuild>(body, what, build);
}

Outcome<RecipeCheck> parseRecipeCheck(const QByteArray& body, const QString& what)
{
    return parseWith<RecipeCheck>(body, what, [](const Json& j) {
        const JsonReader r(j, QStringLiteral("check"));
        RecipeCheck c;
        c.from = r.string("from");
        if (const Json* list = r.find("steps"))
            c.steps = listOf<RecipeCheckStep>(*list, "steps", checkStep);
        if (const Json* list = r.find("files"))
            c.fileSources = listOf<QString>(*list, "files", fileSource);
        return c;
    });
}

} // namespace lizard::client
