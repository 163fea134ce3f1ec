#pragma once
// One terminal of a sandbox, held by lizard-local: the master side of a PTY the agent opened in
// the sandbox (agent "pty" request), the agent connection that reports the program's exit, the
// last MiB of output, and the clients attached to it. The session outlives its clients: a
// client that attaches again gets the recent output, then the live one.
//
// Output is read while every client keeps up: when one has more than kClientHighWater queued,
// reading pauses (the program blocks on its terminal) until all are below kClientLowWater.
// Input waits in a queue of at most kInputBacklog; past that, clients stop being read.
// Public methods may be called from any thread.

#include "common/result.h"
#include "runtime/agentclient.h"
#include "sandboxes/terminals/outputring.h"

#include <array>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace lizard::sandboxes {

struct TerminalInfo
{
    std::string id;
    std::string sandboxId;
    std::string name;
    std::vector<std::string> argv;
    std::string user;
    std::string cwd;
    std::string tty; // the terminal's name in the sandbox (/dev/pts/N)
    std::string createdBy;
    int cols = 80;
    int rows = 24;
    int pid = 0;
    std::int64_t createdAtMs = 0;
    std::int64_t endedAtMs = 0;
    bool running = true;
    std::optional<int> exitCode;
    std::string endReason; // "exited", "closed", "sandbox ended"
    std::string closedBy;  // the key's name when a client closed it
    int clients = 0;
};

// An attached client (a WebSocket). Called with the session's lock held: only queue.
class TerminalClient
{
public:
    virtual ~TerminalClient() = default;
    virtual void attached(const TerminalInfo& info, std::shared_ptr<const std::string> replay) = 0;
    virtual void output(std::shared_ptr<const std::string> bytes) = 0;
    virtual void resized(int cols, int rows) = 0;
    virtual void ended(const TerminalInfo& info) = 0;
    virtual std::size_t queuedBytes() const = 0;
    virtual void pauseInput(bool paused) = 0;
};

class TerminalSession : public std::enable_shared_from_this<TerminalSession>
{
public:
    static constexpr std::size_t kRingBytes = 1u << 20;
    static constexpr std::size_t kReadChunk = 64 * 1024;
    static constexpr std::size_t kClientHighWater = 1u << 20;
    static constexpr std::size_t kClientLowWater = 256 * 1024;
    static constexpr std::size_t kInputBacklog = 256 * 1024;
    static constexpr int kMaxClients = 4;

    // Takes over the descriptors of `handoff` (the agent's answer to "pty").
    TerminalSession(boost::asio::any_io_executor ex, TerminalInfo info,
                    runtime::DescriptorReply handoff);
    ~TerminalSession();

    // `onEnded` runs once, on the session's strand, when the program ended or was closed.
    void start(std::function<void(const TerminalInfo&)> onEnded);
    TerminalInfo info() const;

    // Registers the client and hands it the recent output (attached()); TOO_MANY_CLIENTS.
    // A terminal that ended is attached too: the client gets its output, then ended().
    Status attach(const std::shared_ptr<TerminalClient>& client);
    void detach(const TerminalClient* client);
    void input(std::string bytes);
    Status resize(int cols, int rows);
    Status signal(int sig);
    void rename(std::string name);
    // Ends the program: the agent hangs it up, then kills its tree. `by`: the key's name.
    void close(std::string by);
    // The sandbox is gone (its processes with it): ends now, with reason "sandbox ended".
    void sandboxEnded();
    // A client's queue went down: reading may go on.
    void clientProgress();

private:
    void readMaster();
    void readAgent();
    void parseAgentFrames();
    void writeInput();
    void maybeEnd();
    void end(const char* reason = nullptr);
    bool clientsCongested(std::size_t limit) const; // with m_mutex held
    void pauseClientsInput(bool paused);            // with m_mutex held

    boost::asio::strand<boost::asio::any_io_executor> m_strand;
    boost::asio::posix::stream_descriptor m_master;
    boost::asio::local::stream_protocol::socket m_agent;
    boost::asio::steady_timer m_endTimer;
    std::array<char, kReadChunk> m_readBuffer{};
    std::array<char, 4096> m_agentBuffer{};
    std::string m_agentReceived;
    std::function<void(const TerminalInfo&)> m_onEnded;

    // On the strand.
    std::string m_input;
    // The bytes of the write in flight: apart from m_input, which grows meanwhile, so the
    // buffer the kernel is given stays where it is until the write completes.
    std::string m_inFlight;
    bool m_writing = false;
    bool m_inputPaused = false;
    bool m_outputPaused = false;
    bool m_masterDone = false;
    bool m_agentDone = false;
    bool m_closing = false;
    bool m_ended = false;
    std::optional<int> m_exitCode;

    mutable std::mutex m_mutex; // guards what follows
    TerminalInfo m_info;
    OutputRing m_ring{kRingBytes};
    std::vector<std::shared_ptr<TerminalClient>> m_clients;
    int m_masterFd = -1; // for ioctls from any thread; -1 once closed
};

} // namespace lizard::sandboxes
