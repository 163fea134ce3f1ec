#pragma once
// GET /api/sandboxes/{id}/logs as Server-Sent Events: the last `tail` lines of the sandbox's
// system log, then each new line as it is written, until the sandbox ends (an `end` event,
// then the stream closes), the client goes, or its key is revoked.

#include "api/eventstream.h"
#include "api/keystreams.h"
#include "logs/systemlog.h"

#include <memory>
#include <optional>

namespace lizard::api {

class LogStream : public Revocable, public EventStream
{
public:
    LogStream(std::shared_ptr<http::Exchange> exchange, logs::SystemLog& log, std::string sandboxId,
              size_t tail, bool follow);
    // False when the sandbox has no log (it is gone): nothing was answered yet.
    bool start();
    void revoke() override { revokeOnExecutor(); }

    // "event: log\nid: <seq>\ndata: <LogLine JSON>\n\n"
    static std::string logEvent(const logs::LogLine& line);

private:
    void onLine(const std::optional<logs::LogLine>& line);
    void send(std::string text);
    void finish(std::string text); // a last event, then the end of the stream
    void cancel() override;
    void endRevoked() override;
    void unsubscribe();

    logs::SystemLog& m_log;
    std::string m_id;
    size_t m_tail;
    bool m_follow;
    uint64_t m_token = 0;
};

} // namespace lizard::api
