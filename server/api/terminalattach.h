#pragma once
// A WebSocket attached to a terminal (GET .../terminals/{tid}/attach): the session's output as
// binary messages, input from binary messages, JSON control in text messages (resize, signal
// from the client; hello, resize, exit and error from the server). Shapes: api/DECISIONS.md,
// "Terminals".

#include "api/keystreams.h"
#include "http/websocketconnection.h"
#include "sandboxes/terminals/terminalsession.h"

#include <functional>
#include <memory>
#include <string>

namespace lizard::api {

// A signal for a terminal's foreground programs, by name ("SIGINT" or "INT") or number:
// INT, QUIT, TSTP, CONT, HUP, TERM, KILL, USR1, USR2, WINCH. 400 INVALID_ARGUMENT otherwise.
Result<int> terminalSignal(const nlohmann::json& value);

class TerminalAttachment : public sandboxes::TerminalClient,
                           public Revocable,
                           public std::enable_shared_from_this<TerminalAttachment>
{
public:
    // Largest binary message sent: the replay and big reads are cut to this.
    static constexpr std::size_t kMaxOutgoing = 64 * 1024;
    // Largest input message taken (a paste is split by the client).
    static constexpr std::size_t kMaxInput = 64 * 1024;

    // `readOnly`: the key may watch, not type (input and control answer an error message).
    TerminalAttachment(std::shared_ptr<sandboxes::TerminalSession> session,
                       std::shared_ptr<http::WebSocketConnection> connection, bool replay,
                       bool readOnly);

    // Runs at each input message taken (before start).
    void onInput(std::function<void()> hook) { m_onInput = std::move(hook); }
    // Answers the upgrade, then attaches to the session.
    void start(http::Request request);

    // TerminalClient (called with the session's lock held: only queues).
    void attached(const sandboxes::TerminalInfo& info,
                  std::shared_ptr<const std::string> replay) override;
    void output(std::shared_ptr<const std::string> bytes) override;
    void resized(int cols, int rows) override;
    void ended(const sandboxes::TerminalInfo& info) override;
    std::size_t queuedBytes() const override;
    void pauseInput(bool paused) override;

    // Revocable: the key was revoked.
    void revoke() override;

private:
    void onMessage(bool binary, std::string message);
    void onControl(const std::string& text);
    void sendError(const std::string& code, const std::string& message);
    void sendChunks(const std::shared_ptr<const std::string>& bytes);

    std::shared_ptr<sandboxes::TerminalSession> m_session;
    std::shared_ptr<http::WebSocketConnection> m_connection;
    const bool m_replay;
    const bool m_readOnly;
    std::function<void()> m_onInput;
};

} // namespace lizard::api
