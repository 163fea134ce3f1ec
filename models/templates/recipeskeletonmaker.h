#pragma once
// The calls behind "Recipe from this sandbox": its changes (caches left out), the dpkg status
// of the sandbox and of its template and apt's marks, then the recipe (recipeskeleton.h); the
// files it copies are saved under the chosen folder at their paths, with the recipe beside
// them as recipe.yaml, so that the folder builds as it is.

#include "models/templates/recipeskeleton.h"

#include <QObject>
#include <QPointer>

namespace lizard::client {
class LizardApi;
}

namespace lizard::models {

class RecipeSkeletonMaker : public QObject
{
    Q_OBJECT
public:
    explicit RecipeSkeletonMaker(client::LizardApi* api, QObject* parent = nullptr);

    // made() or failed() follows, once. `folder` must exist; nothing in it is overwritten but
    // the files the recipe copies and recipe.yaml.
    void make(const QString& sandboxId, const QString& templateName, const QString& folder);

signals:
    void progress(const QString& text);
    void made(const lizard::models::RecipeSkeleton& skeleton, const QString& recipePath);
    void failed(const QString& message);

private:
    struct Job;
    void gathered(const std::shared_ptr<Job>& job);
    void saveNext(const std::shared_ptr<Job>& job, int index);

    QPointer<client::LizardApi> m_api;
};

} // namespace lizard::models
