#include "models/templates/templatebuildsession.h"

#include "client/lizardapi.h"
#include "client/templatebuildstream.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace lizard::models {

namespace {

client::ApiError localError(const QString& message)
{
    client::ApiError e;
    e.kind = client::ApiError::Kind::InvalidRequest;
    e.message = message;
    return e;
}

} // namespace

TemplateBuildSession::TemplateBuildSession(client::LizardApi* api, QObject* parent)
    : QObject(parent), m_api(api)
{
}

TemplateBuildSession::~TemplateBuildSession()
{
    stopFollowing();
}

int TemplateBuildSession::errorLine(const QString& message)
{
    static const QRegularExpression re(QStringLiteral("^line (\\d+):"));
    const auto m = re.match(message);
    return m.hasMatch() ? m.captured(1).toInt() : 0;
}

void TemplateBuildSession::check(const QString& recipe)
{
    m_pendingCheck = recipe;
    m_checkQueued = true;
    if (!m_checkCall)
        sendCheck();
}

void TemplateBuildSession::sendCheck()
{
    if (!m_api || !m_checkQueued)
        return;
    m_checkQueued = false;
    m_checkCall =
        m_api->checkRecipe(m_pendingCheck, this, [this](client::Outcome<client::RecipeCheck> o) {
            m_checkCall = nullptr;
            if (m_checkQueued) // the text changed meanwhile
                return sendCheck();
            if (o)
                emit checked(o.value());
            else
                emit checkFailed(errorLine(o.error().message), o.error().message);
        });
}

client::Outcome<QMap<QString, QByteArray>>
TemplateBuildSession::readFiles(const QString& folder, const QStringList& sources)
{
    QMap<QString, QByteArray> out;
    if (sources.isEmpty())
        return out;
    if (folder.isEmpty())
        return localError(tr("the recipe copies files: choose the folder they are in"));
    const QString root = QFileInfo(folder).canonicalFilePath();
    if (root.isEmpty())
        return localError(tr("the folder %1 does not exist").arg(folder));
    for (const QString& src : sources) {
        const QString path = QDir(root).filePath(src);
        const QString real = QFileInfo(path).canonicalFilePath();
        if (real.isEmpty())
            return localError(tr("%1 is not in %2").arg(src, root));
        if (!real.startsWith(root + QLatin1Char('/')))
            return localError(tr("%1 leads out of the recipe's folder (to %2)").arg(src, real));
        QFile f(real);
        if (!QFileInfo(real).isFile() || !f.open(QIODevice::ReadOnly))
            return localError(tr("%1 cannot be read: %2").arg(src, f.errorString()));
        out.insert(src, f.readAll());
    }
    return out;
}

void TemplateBuildSession::build(const QString& name, const QString& recipe, const QString& folder)
{
    if (!m_api || m_building)
        return;
    m_building = true;
    // The files the recipe names come from its check: the server's parser says which.
    m_api->checkRecipe(
        recipe, this, [this, name, recipe, folder](client::Outcome<client::RecipeCheck> checked) {
            if (!checked) {
                m_building = false;
                return emit failed(checked.error().message);
            }
            auto files = readFiles(folder, checked.value().fileSources);
            if (!files) {
                m_building = false;
                return emit failed(files.error().message);
            }
            m_api->buildTemplate(name, recipe, files.value(), this,
                                 [this, name](client::Outcome<client::TemplateBuild> b) {
                                     if (!b) {
                                         m_building = false;
                                         return emit failed(b.error().message);
                                     }
                                     emit started(b.value());
                                     follow(name, b.value().id);
                                 });
        });
}

void TemplateBuildSession::follow(const QString& name, const QString& buildId)
{
    stopFollowing();
    if (!m_api)
        return;
    m_building = true;
    m_stream = m_api->followTemplateBuild(name, buildId);
    m_stream->setParent(this);
    connect(m_stream, &client::TemplateBuildStream::lines, this, &TemplateBuildSession::lines);
    connect(m_stream, &client::TemplateBuildStream::ended, this,
            [this](const client::TemplateBuild& b) {
                m_building = false;
                if (m_stream)
                    m_stream->deleteLater();
                emit ended(b);
            });
    connect(m_stream, &client::TemplateBuildStream::failed, this,
            [this](const client::ApiError& e) {
                m_building = false;
                if (m_stream)
                    m_stream->deleteLater();
                if (e.kind != client::ApiError::Kind::Cancelled)
                    emit failed(e.message);
            });
}

void TemplateBuildSession::stopFollowing()
{
    if (m_stream) {
        m_stream->disconnect(this);
        m_stream->cancel();
        m_stream->deleteLater();
    }
    m_building = false;
}

} // namespace lizard::models
