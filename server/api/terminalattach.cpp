#include "api/terminalattach.h"

#include "api/jsonbody.h"

#include <array>
#include <csignal>
#include <utility>

namespace lizard::api {

namespace {

struct NamedSignal
{
    const char* name;
    int number;
};
constexpr std::array<NamedSignal, 10> kTerminalSignals{{{"INT", SIGINT},
                                                        {"QUIT", SIGQUIT},
                                                        {"TSTP", SIGTSTP},
                                                        {"CONT", SIGCONT},
                                                        {"HUP", SIGHUP},
                                                        {"TERM", SIGTERM},
                                                        {"KILL", SIGKILL},
                                                        {"USR1", SIGUSR1},
                                                        {"USR2", SIGUSR2},
                                                        {"WINCH", SIGWINCH}}};

Error badSignal()
{
    return invalidArgument("field \"signal\" must be one of SIGINT, SIGQUIT, SIGTSTP, SIGCONT, "
                           "SIGHUP, SIGTERM, SIGKILL, SIGUSR1, SIGUSR2, SIGWINCH (or its number)");
}

} // namespace

Result<int> terminalSignal(const nlohmann::json& value)
{
    if (value.is_number_integer()) {
        const auto n = value.get<int64_t>();
        for (const auto& s : kTerminalSignals)
            if (s.number == n)
                return s.number;
        return badSignal();
    }
    if (!value.is_string())
        return badSignal();
    std::string name = value.get<std::string>();
    if (name.rfind("SIG", 0) == 0)
        name.erase(0, 3);
    for (const auto& s : kTerminalSignals)
        if (name == s.name)
            return s.number;
    return badSignal();
}

TerminalAttachment::TerminalAttachment(std::shared_ptr<sandboxes::TerminalSession> session,
                                       std::shared_ptr<http::WebSocketConnection> connection,
                                       bool replay, bool readOnly)
    : m_session(std::move(session)), m_connection(std::move(connection)), m_replay(replay),
      m_readOnly(readOnly)
{
}

void TerminalAttachment::start(http::Request request)
{
    // The connection holds the handlers; they hold this only weakly, so that the session's
    // list of clients is what keeps it (and a closed connection lets it go).
    std::weak_ptr<TerminalAttachment> weak = weak_from_this();
    http::WebSocketConnection::Handler handler;
    handler.onMessage = [weak](bool binary, std::string message) {
        if (auto self = weak.lock())
            self->onMessage(binary, std::move(message));
    };
    handler.onClosed = [weak, session = m_session] {
        if (auto self = weak.lock())
            session->detach(self.get());
    };
    handler.onWritten = [session = m_session] { session->clientProgress(); };
    auto self = shared_from_this();
    m_connection->start(std::move(request), std::move(handler), [self] {
        if (Status s = self->m_session->attach(self); !s) {
            // Lost the race for the last place since the check before the upgrade.
            self->sendError(s.error().code, s.error().message);
            self->m_connection->close(http::websocket::close_code::try_again_later, s.error().code);
        }
    });
}

void TerminalAttachment::attached(const sandboxes::TerminalInfo& info,
                                  std::shared_ptr<const std::string> replay)
{
    const std::size_t replayBytes = m_replay ? replay->size() : 0;
    m_connection->sendText(nlohmann::json{
        {"type", "hello"},
        {"terminalId", info.id},
        {"cols", info.cols},
        {"rows", info.rows},
        {"status", info.running ? "running" : "exited"},
        {"replayBytes",
         replayBytes}}.dump());
    if (replayBytes > 0)
        sendChunks(replay);
}

void TerminalAttachment::sendChunks(const std::shared_ptr<const std::string>& bytes)
{
    if (bytes->size() <= kMaxOutgoing) {
        m_connection->send(true, bytes);
        return;
    }
    for (std::size_t at = 0; at < bytes->size(); at += kMaxOutgoing)
        m_connection->send(true,
                           std::make_shared<const std::string>(bytes->substr(at, kMaxOutgoing)));
}

void TerminalAttachment::output(std::shared_ptr<const std::string> bytes)
{
    sendChunks(bytes);
}

void TerminalAttachment::resized(int cols, int rows)
{
    m_connection->sendText(
        nlohmann::json{{"type", "resize"}, {"cols", cols}, {"rows", rows}}.dump());
}

void TerminalAttachment::ended(const sandboxes::TerminalInfo& info)
{
    nlohmann::json exit{{"type", "exit"}, {"reason", info.endReason}};
    exit["code"] = info.exitCode ? nlohmann::json(*info.exitCode) : nlohmann::json(nullptr);
    m_connection->sendText(exit.dump());
    m_connection->close(http::websocket::close_code::normal);
}

std::size_t TerminalAttachment::queuedBytes() const
{
    return m_connection->queuedBytes();
}

void TerminalAttachment::pauseInput(bool paused)
{
    m_connection->pauseReading(paused);
}

void TerminalAttachment::revoke()
{
    sendError("KEY_REVOKED", "the API key of this connection was revoked");
    m_connection->close(http::websocket::close_code::policy_error, "KEY_REVOKED");
}

void TerminalAttachment::sendError(const std::string& code, const std::string& message)
{
    m_connection->sendText(
        nlohmann::json{{"type", "error"}, {"code", code}, {"message", message}}.dump());
}

void TerminalAttachment::onMessage(bool binary, std::string message)
{
    if (m_readOnly)
        return sendError("INSUFFICIENT_SCOPE",
                         "this API key is read-only: it may watch the terminal, not type in it");
    if (!binary)
        return onControl(message);
    if (message.size() > kMaxInput)
        return sendError("INPUT_TOO_LARGE", "an input message carries at most 65536 bytes; " +
                                                std::to_string(message.size()) +
                                                " were sent (split pastes)");
    if (m_onInput)
        m_onInput();
    m_session->input(std::move(message));
}

void TerminalAttachment::onControl(const std::string& text)
{
    auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object() || !j.contains("type") || !j["type"].is_string())
        return sendError("INVALID_CONTROL",
                         "a text message must be a JSON object with a \"type\" (resize, signal)");
    const std::string type = j["type"].get<std::string>();
    if (type == "resize") {
        const auto cols = j.value("cols", nlohmann::json());
        const auto rows = j.value("rows", nlohmann::json());
        if (!cols.is_number_integer() || !rows.is_number_integer() || cols.get<int64_t>() < 1 ||
            cols.get<int64_t>() > 1000 || rows.get<int64_t>() < 1 || rows.get<int64_t>() > 500)
            return sendError("INVALID_CONTROL",
                             "resize needs integer \"cols\" (1..1000) and \"rows\" (1..500)");
        if (Status s = m_session->resize(int(cols.get<int64_t>()), int(rows.get<int64_t>())); !s)
            sendError(s.error().code, s.error().message);
        return;
    }
    if (type == "signal") {
        auto sig = terminalSignal(j.value("signal", nlohmann::json()));
        if (!sig)
            return sendError("INVALID_CONTROL", sig.error().message);
        if (Status s = m_session->signal(*sig); !s)
            sendError(s.error().code, s.error().message);
        return;
    }
    sendError("INVALID_CONTROL", "unknown message type \"" + type + "\" (resize, signal)");
}

} // namespace lizard::api
