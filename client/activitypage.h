#pragma once
// One page of a sandbox's activity log (GET /api/sandboxes/{id}/activity, a lizard-local
// extension): entries as the server wrote them (JSON objects with seq, time, kind and the
// kind's fields; server/api/DECISIONS.md "Activity log").

#include <QMetaType>
#include <nlohmann/json.hpp>
#include <vector>

namespace lizard::client {

struct ActivityPage
{
    std::vector<nlohmann::json> entries;
    qint64 lastSeq = 0; // pass as `since` next
    bool more = false;  // the page was full: ask again at once
};

} // namespace lizard::client

Q_DECLARE_METATYPE(lizard::client::ActivityPage)
