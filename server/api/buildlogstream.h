#pragma once
// GET /api/templates/{name}/builds/{id}/log as Server-Sent Events: the build's log so far, then
// each new line while it runs, then an `end` event with the build as it ended, and the stream
// closes. An ended build's log comes from its file, then the same `end`.

#include "api/eventstream.h"
#include "api/keystreams.h"
#include "sandboxes/templates/buildlog.h"

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

namespace lizard::api {

class BuildLogStream : public Revocable, public EventStream
{
public:
    // `log` null: the build has ended, and start's lines say everything. `build` gives the
    // build's JSON for the `end` event (once it has ended).
    BuildLogStream(std::shared_ptr<http::Exchange> exchange,
                   std::shared_ptr<sandboxes::BuildLog> log, std::function<nlohmann::json()> build);
    void start(std::vector<std::string> endedLines);
    void revoke() override { revokeOnExecutor(); }

    // "event: log\ndata: {"line": ...}\n\n"
    static std::string lineEvent(const std::string& line);
    static std::string endEvent(const nlohmann::json& build);

private:
    void send(std::string text);
    void finish(std::string text);
    void cancel() override;
    void endRevoked() override;
    void unsubscribe();

    std::shared_ptr<sandboxes::BuildLog> m_log;
    std::function<nlohmann::json()> m_build;
    uint64_t m_token = 0;
};

} // namespace lizard::api
