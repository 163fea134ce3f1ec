#include "models/templates/recipeskeletonmaker.h"

#include "client/lizardapi.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace lizard::models {

struct RecipeSkeletonMaker::Job
{
    QString folder;
    SkeletonInput input;
    int waiting = 0;
    QString error;
    RecipeSkeleton skeleton;
};

RecipeSkeletonMaker::RecipeSkeletonMaker(client::LizardApi* api, QObject* parent)
    : QObject(parent), m_api(api)
{
}

void RecipeSkeletonMaker::make(const QString& sandboxId, const QString& templateName,
                               const QString& folder)
{
    if (!m_api)
        return emit failed(tr("not connected"));
    if (!QFileInfo(folder).isDir())
        return emit failed(tr("the folder %1 does not exist").arg(folder));
    auto job = std::make_shared<Job>();
    job->folder = QFileInfo(folder).canonicalFilePath();
    job->input.sandboxId = sandboxId;
    job->input.templateName = templateName;
    job->waiting = 4;
    emit progress(tr("Reading what %1 changed…").arg(sandboxId));
    const auto arrived = [this, job] {
        if (--job->waiting == 0)
            gathered(job);
    };
    m_api->sandboxChanges(sandboxId, {QStringLiteral("__pycache__"), QStringLiteral("*.pyc")}, this,
                          [job, arrived](client::Outcome<client::SandboxChanges> o) {
                              if (o)
                                  job->input.changes = o.value();
                              else
                                  job->error = o.error().toDisplayString();
                              arrived();
                          });
    const QString status = QStringLiteral("/var/lib/dpkg/status");
    m_api->readFile(sandboxId, status, this, [job, arrived](client::Outcome<QByteArray> o) {
        if (o)
            job->input.sandboxDpkgStatus = o.value();
        arrived();
    });
    m_api->templateOriginal(sandboxId, status, this, [job, arrived](client::Outcome<QByteArray> o) {
        if (o)
            job->input.templateDpkgStatus = o.value();
        else if (o.error().kind != client::ApiError::Kind::NotFound)
            job->error = o.error().toDisplayString();
        arrived();
    });
    m_api->readFile(sandboxId, QStringLiteral("/var/lib/apt/extended_states"), this,
                    [job, arrived](client::Outcome<QByteArray> o) {
                        if (o) // absent until apt installs something: nothing is marked
                            job->input.aptExtendedStates = o.value();
                        arrived();
                    });
}

void RecipeSkeletonMaker::gathered(const std::shared_ptr<Job>& job)
{
    if (!job->error.isEmpty())
        return emit failed(job->error);
    job->skeleton = recipeSkeleton(job->input);
    saveNext(job, 0);
}

void RecipeSkeletonMaker::saveNext(const std::shared_ptr<Job>& job, int index)
{
    const QStringList& files = job->skeleton.files;
    if (index >= files.size()) {
        const QString path = QDir(job->folder).filePath(QStringLiteral("recipe.yaml"));
        QSaveFile out(path);
        if (!out.open(QIODevice::WriteOnly) || out.write(job->skeleton.recipe.toUtf8()) < 0 ||
            !out.commit())
            return emit failed(tr("cannot write %1: %2").arg(path, out.errorString()));
        return emit made(job->skeleton, path);
    }
    const QString remote = files.at(index);
    emit progress(tr("Saving %1 (%2 of %3)…").arg(remote).arg(index + 1).arg(files.size()));
    m_api->readFile(
        job->input.sandboxId, remote, this,
        [this, job, index, remote](client::Outcome<QByteArray> o) {
            if (!o)
                return emit failed(
                    tr("cannot read %1: %2").arg(remote, o.error().toDisplayString()));
            // The sandbox's absolute path, below the folder (the recipe's source).
            const QString local = QDir(job->folder).filePath(remote.mid(1));
            const QString parent = QFileInfo(local).absolutePath();
            if (!QDir().mkpath(parent))
                return emit failed(tr("cannot make the folder of %1").arg(local));
            // A link already in the folder must not take a file elsewhere.
            const QString real = QFileInfo(parent).canonicalFilePath();
            if (real != job->folder && !real.startsWith(job->folder + u'/'))
                return emit failed(tr("%1 leads out of %2").arg(local, job->folder));
            QSaveFile out(local);
            if (!out.open(QIODevice::WriteOnly) || out.write(o.value()) < 0 || !out.commit())
                return emit failed(tr("cannot write %1: %2").arg(local, out.errorString()));
            saveNext(job, index + 1);
        });
}

} // namespace lizard::models
