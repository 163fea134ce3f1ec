#pragma once
// "Recipe from this sandbox": a recipe that makes another sandbox like this one, from what it
// changed against its template. The Debian packages it installed by hand (in its dpkg status and
// not the template's, less what apt marked as pulled in), the Python packages pip was asked
// for (a REQUESTED file in their .dist-info), the npm packages installed globally, and the files
// it added or changed outside those packages' own folders and configuration files, caches and
// what the sandbox's start writes; deleted paths as a comment (a recipe adds, it does not delete).

#include "client/types.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace lizard::models {

struct RecipeSkeleton
{
    QString recipe;
    QStringList files;   // the sandbox's files the recipe copies (absolute paths)
    QStringList skipped; // files left out, with why ("/root/big.bin: 40 MB, over the bound")
};

struct SkeletonInput
{
    QString templateName; // the sandbox's (its recipe's `from`)
    QString sandboxId;
    client::SandboxChanges changes;
    QByteArray templateDpkgStatus; // /var/lib/dpkg/status, the template's and the sandbox's
    QByteArray sandboxDpkgStatus;
    QByteArray aptExtendedStates; // /var/lib/apt/extended_states of the sandbox; may be empty
};

// The bounds of the files a build may send (lizard-local's).
constexpr int kSkeletonMaxFiles = 200;
constexpr qint64 kSkeletonMaxBytes = 32LL << 20;

RecipeSkeleton recipeSkeleton(const SkeletonInput& in);

// The packages dpkg lists as installed in a status file.
QStringList installedPackages(const QByteArray& dpkgStatus);

} // namespace lizard::models
