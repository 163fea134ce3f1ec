// LizardApi: templates built from recipes on lizard-local (a local extension; the cloud answers
// 404): list, detail, check, build, delete, and the build's log.
#include "client/apicall.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"
#include "client/templatebuildstreamimpl.h"

#include <nlohmann/json.hpp>

namespace lizard::client {

using namespace apicall;

namespace {

QByteArray jsonBody(const nlohmann::json& j)
{
    return QByteArray::fromStdString(
        j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace

PendingCall* LizardApi::listTemplates(QObject* ctx, Done<QList<TemplateInfo>> done)
{
    return startCall<QList<TemplateInfo>>(
        m_multi.get(), RequestBuilder(m_endpoint).json("GET", "/api/templates"),
        tr("List templates"), ctx, std::move(done), parseTemplates);
}

PendingCall* LizardApi::templateInfo(const QString& name, QObject* ctx, Done<TemplateInfo> done)
{
    return startCall<TemplateInfo>(
        m_multi.get(), RequestBuilder(m_endpoint).json("GET", "/api/templates/" + seg(name)),
        tr("Read template %1").arg(name), ctx, std::move(done), parseTemplateInfo);
}

PendingCall* LizardApi::checkRecipe(const QString& recipe, QObject* ctx, Done<RecipeCheck> done)
{
    const QByteArray body = jsonBody(nlohmann::json{{"recipe", recipe.toStdString()}});
    return startCall<RecipeCheck>(
        m_multi.get(), RequestBuilder(m_endpoint).json("POST", "/api/templates/check", body),
        tr("Check the recipe"), ctx, std::move(done), parseRecipeCheck);
}

PendingCall* LizardApi::buildTemplate(const QString& name, const QString& recipe,
                                      const QMap<QString, QByteArray>& files, QObject* ctx,
                                      Done<TemplateBuild> done)
{
    nlohmann::json body = {{"name", name.toStdString()}, {"recipe", recipe.toStdString()}};
    if (!files.isEmpty()) {
        nlohmann::json sent = nlohmann::json::object();
        for (auto it = files.begin(); it != files.end(); ++it)
            sent[it.key().toStdString()] = it.value().toBase64().toStdString();
        body["files"] = std::move(sent);
    }
    return startCall<TemplateBuild>(
        m_multi.get(), RequestBuilder(m_endpoint).json("POST", "/api/templates", jsonBody(body)),
        tr("Build template %1").arg(name), ctx, std::move(done), parseTemplateBuild);
}

PendingCall* LizardApi::deleteTemplate(const QString& name, QObject* ctx, Done<Unit> done)
{
    return startCall<Unit>(m_multi.get(),
                           RequestBuilder(m_endpoint).json("DELETE", "/api/templates/" + seg(name)),
                           tr("Delete template %1").arg(name), ctx, std::move(done), noValue);
}

TemplateBuildStream* LizardApi::followTemplateBuild(const QString& name, const QString& buildId)
{
    return new TemplateBuildStreamImpl(
        m_multi.get(),
        RequestBuilder(m_endpoint)
            .follow("/api/templates/" + seg(name) + "/builds/" + seg(buildId) + "/log"),
        tr("Follow the build of %1").arg(name));
}

} // namespace lizard::client
