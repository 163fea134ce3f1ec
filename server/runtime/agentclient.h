#pragma once
// Asynchronous client of one sandbox's agent (see server/agent/PROTOCOL.md), on asio.
// Every call opens its own connection; callbacks run on the given executor.

#include "common/result.h"

#include <boost/asio/any_io_executor.hpp>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace lizard::runtime {

class AgentConnection;

struct ExecRequest
{
    std::vector<std::string> argv;
    std::map<std::string, std::string> env;
    std::string cwd; // empty: the user's home
    std::string user = "root";
    int timeoutMs = 60000;
    // lizard-local's own helpers (the desktop's) keep PID 1's OOM score; the sandbox's code
    // is the OOM killer's first choice (agent/serve/execspawn.h).
    bool helper = false;
    // argv is ["python3", "-c", <the code runner this lizard-local ships>, <request>]: the agent
    // may fork it from its warm runner zygote (agent/serve/runnerzygote.h).
    bool shippedRunner = false;
};

enum class OutStream { Stdout, Stderr };

// Streaming callbacks of one exec. `onOutput` receives raw bytes (not lines); it must call
// `resume()` once it has dealt with the chunk (for example after the HTTP write finished):
// no more output is read from the agent until then. That is the backpressure path.
struct ExecHandlers
{
    std::function<void(int pid)> onStarted;
    std::function<void(OutStream stream, std::string_view chunk, std::function<void()> resume)>
        onOutput;
    // exitCode is valid when error is empty; timedOut says the agent killed it at its timeout.
    std::function<void(int exitCode, bool timedOut)> onExit;
    std::function<void(const Error& error)> onError; // could not start, agent gone, ...
    // Optional: the agent forked the command from its warm runner zygote (the official SDK's
    // runCode), not from a new python3.
    std::function<void()> onWarmRunner;
};

// Cancels the operation (closes the connection; the agent then kills an exec's tree).
class Cancel
{
public:
    virtual ~Cancel() = default;
    virtual void cancel() = 0;
};

// A reply that carried a descriptor: the agent's JSON, the descriptor (the caller owns it) and,
// for requests whose connection stays open, that connection (owned by the caller too) with any
// bytes already read from it after the reply.
struct DescriptorReply
{
    int fd = -1;
    nlohmann::json reply;
    int connection = -1;
    std::string after;
};

class AgentClient
{
public:
    AgentClient(boost::asio::any_io_executor ex, std::string socketPath);

    std::shared_ptr<Cancel> exec(ExecRequest req, ExecHandlers handlers);

    // One-shot JSON requests: ping, processes, signal, list, stat, remove, move, mkdir.
    // The callback gets the agent's reply object ({"ok":true,...}) or an Error mapped from
    // the agent's code (NOT_FOUND → NotFound, PERMISSION_DENIED → Forbidden, INVALID_ARGUMENT →
    // InvalidArgument, …).
    void request(nlohmann::json req, std::function<void(Result<nlohmann::json>)> done);

    // Streams a file out of the sandbox. onData gets chunks with a resume() like exec.
    std::shared_ptr<Cancel>
    readFile(std::string path, std::string user, std::function<void(uint64_t size)> onSize,
             std::function<void(std::string_view, std::function<void()> resume)> onData,
             std::function<void(Status)> done);

    // Writes a whole file (parents created). The content is moved in; small bodies only
    // (the HTTP layer caps request bodies).
    void writeFile(std::string path, std::string user, std::string content,
                   std::function<void(Status)> done);

    // Connects to 127.0.0.1:port (or [::1]:port) inside the sandbox's network namespace and
    // hands over the connected TCP socket: the callback owns the fd (close it). Errors:
    // CONNECTION_REFUSED (nothing listens), CONNECT_TIMEOUT, SANDBOX_UNREACHABLE, ...
    void connectPort(int port, std::function<void(Result<int>)> done);

    // Starts a program on a new terminal in the sandbox ({"op":"pty",...}, PROTOCOL.md): the
    // descriptor is the terminal's master side, `reply` holds its pid and tty, and the kept
    // connection ends with the program's {"exitCode":N} frame. Closing that connection ends the
    // program (SIGHUP, then SIGKILL for its tree).
    void openTerminal(nlohmann::json req, std::function<void(Result<DescriptorReply>)> done);

private:
    void descriptorRequest(const nlohmann::json& req, bool keepConnection,
                           std::function<void(Result<DescriptorReply>)> done);
    // The agent's one JSON answer that ends a call on `conn` ({"ok":true,...} or its error),
    // then closes it.
    static void readReply(const std::shared_ptr<AgentConnection>& conn,
                          std::function<void(Result<nlohmann::json>)> done);

    boost::asio::any_io_executor m_ex;
    std::string m_socketPath;
};

} // namespace lizard::runtime
