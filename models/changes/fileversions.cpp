#include "models/changes/fileversions.h"

#include "client/lizardapi.h"

#include <memory>

namespace lizard::models::changes {

void readFileVersions(client::LizardApi* api, const QString& sandboxId, const QString& against,
                      const client::FileChange& change, QObject* ctx,
                      std::function<void(const FileVersions&)> done)
{
    // Both sides arrive separately; `done` once both are in.
    struct Pending
    {
        FileVersions versions;
        int left = 0;
        std::function<void(const FileVersions&)> done;
    };
    auto pending = std::make_shared<Pending>();
    pending->versions.path = change.path;
    pending->done = std::move(done);
    // "Before" is the template's file, or the snapshot's (read from its files by lizard-local),
    // or the other sandbox's (read from that sandbox).
    const bool before = change.kind != QLatin1String("added");
    const bool after = change.kind != QLatin1String("deleted");
    pending->left = int(before) + int(after);
    if (pending->left == 0) {
        pending->done(pending->versions);
        return;
    }
    // One side read into its slot; a side that cannot be read says why.
    const auto into = [pending](std::optional<QByteArray> FileVersions::*side) {
        return [pending, side](client::Outcome<QByteArray> r) {
            if (r)
                pending->versions.*side = r.value();
            else
                pending->versions.error = r.error().toDisplayString();
            if (--pending->left == 0)
                pending->done(pending->versions);
        };
    };
    if (before && against.startsWith(QLatin1String("sb_")))
        api->readFile(against, change.path, ctx, into(&FileVersions::before));
    else if (before)
        api->templateOriginal(sandboxId, change.path, ctx, into(&FileVersions::before), against);
    if (after)
        api->readFile(sandboxId, change.path, ctx, into(&FileVersions::after));
}

} // namespace lizard::models::changes
