#pragma once
// Both versions of a changed file, as the Changes tab compares them: the "before" side is the
// template's (or the snapshot's, or the other sandbox's file it is compared with), the "after"
// side the sandbox's. A side the file does not have stays empty.

#include "client/types.h"

#include <QObject>
#include <functional>
#include <optional>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models::changes {

struct FileVersions
{
    QString path;
    std::optional<QByteArray> before; // the template's
    std::optional<QByteArray> after;  // the sandbox's
    QString error;                    // non-empty: one side could not be read
};

// `against`: "" (the template), a snapshot's or another sandbox's id. `done` runs once, when
// both sides are in, unless `ctx` is gone by then.
void readFileVersions(client::LizardApi* api, const QString& sandboxId, const QString& against,
                      const client::FileChange& change, QObject* ctx,
                      std::function<void(const FileVersions&)> done);

} // namespace lizard::models::changes
