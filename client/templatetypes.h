#pragma once
// Templates built from recipes on lizard-local (GET|POST /api/templates, a local extension; the
// cloud answers 404): the templates, their versions and builds, and a recipe's check.

#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>

namespace lizard::client {

struct TemplateBuild
{
    QString id; // "tbld_..."
    QString name;
    QString status; // building | succeeded | failed | interrupted
    int steps = 0;
    int cachedSteps = 0;
    std::optional<int> failedStep; // 0-based
    std::optional<int> exitCode;
    std::optional<int> version; // what it made
    QString error;
    QDateTime startedAt;
    QDateTime endedAt;
    qint64 durationMs = 0;
};

struct TemplateVersion
{
    int version = 0;
    QString tag; // "name:N"
    QString snapshotId;
    qint64 sizeBytes = 0;
    QDateTime createdAt;
};

struct TemplateInfo
{
    QString name;
    bool recipe = false; // built here from a recipe; false: a built-in one
    QString base;        // the built-in template under a recipe's
    std::optional<int> latest;
    QList<TemplateVersion> versions;
    QString recipeText; // its latest build's
    std::optional<TemplateBuild> lastBuild;
    QList<TemplateBuild> builds; // GET /api/templates/{name} only
    bool building = false;
    bool available = true;
    QString unavailableReason;
    int poolSize = 0;
    int readyCount = 0;
};

struct RecipeCheckStep
{
    QString kind;
    int line = 0;
    QString label; // "apt (line 3)"
};

struct RecipeCheck
{
    QString from;
    QList<RecipeCheckStep> steps;
    QStringList fileSources; // what a build must send, as the recipe names them
};

} // namespace lizard::client
