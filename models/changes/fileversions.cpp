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
    // Against a snapshot there is no "before" to read (its files are not served one by one);
    // against another sandbox it is that sandbox's file.
    const bool snapshot = against.startsWith(QLatin1String("snap_"));
    const bool before = change.kind != QLatin1String("added") && !snapshot;
    const bool after = change.kind != QLatin1String("deleted");
    pending->left = int(before) + int(after);
    if (snapshot && change.kind != QLatin1String("added"))
        pending->versions.error = QObject::tr(
            "the snapshot's version of a file is not shown (only its listing is compared)");
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
        api->templateOriginal(sandboxId, change.path, ctx, into(&FileVersions::before));
    if (after)
        api->readFile(sandboxId, change.path, ctx, into(&FileVersions::after));
}

} // namespace lizard::models::changes
