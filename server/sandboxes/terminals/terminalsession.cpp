#include "sandboxes/terminals/terminalsession.h"

#include "agent/serve/frame.h"
#include "common/timeutil.h"

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

namespace lizard::sandboxes {

namespace asio = boost::asio;

namespace {

// After the program's exit code arrived, output still on its way is read for this long: a
// background job that keeps the terminal open does not keep the session alive.
constexpr auto kDrainAfterExit = std::chrono::milliseconds(300);
// After the terminal hung up (every holder closed it), the agent's exit code is awaited this long.
constexpr auto kWaitForExitCode = std::chrono::seconds(3);

} // namespace

TerminalSession::TerminalSession(asio::any_io_executor ex, TerminalInfo info,
                                 runtime::DescriptorReply handoff)
    : m_strand(asio::make_strand(ex)), m_master(m_strand, handoff.fd),
      m_agent(m_strand, asio::local::stream_protocol(), handoff.connection), m_endTimer(m_strand),
      m_agentReceived(std::move(handoff.after)), m_info(std::move(info)), m_masterFd(handoff.fd)
{
}

TerminalSession::~TerminalSession() = default;

void TerminalSession::start(std::function<void(const TerminalInfo&)> onEnded)
{
    asio::dispatch(m_strand, [self = shared_from_this(), onEnded = std::move(onEnded)]() mutable {
        self->m_onEnded = std::move(onEnded);
        self->parseAgentFrames();
        self->readMaster();
        self->readAgent();
    });
}

TerminalInfo TerminalSession::info() const
{
    std::lock_guard lock(m_mutex);
    TerminalInfo copy = m_info;
    copy.clients = int(m_clients.size());
    return copy;
}

Status TerminalSession::attach(const std::shared_ptr<TerminalClient>& client)
{
    std::lock_guard lock(m_mutex);
    if (int(m_clients.size()) >= kMaxClients)
        return Error{ErrorKind::LimitReached, "TOO_MANY_CLIENTS",
                     "this terminal has " + std::to_string(kMaxClients) +
                         " clients attached already, the most it takes"};
    TerminalInfo copy = m_info;
    copy.clients = int(m_clients.size()) + 1;
    client->attached(copy, std::make_shared<const std::string>(m_ring.contents()));
    if (!m_info.running) {
        client->ended(copy);
        return okStatus();
    }
    m_clients.push_back(client);
    if (m_inputPaused)
        client->pauseInput(true);
    return okStatus();
}

void TerminalSession::detach(const TerminalClient* client)
{
    {
        std::lock_guard lock(m_mutex);
        std::erase_if(m_clients, [client](const auto& c) { return c.get() == client; });
    }
    clientProgress(); // the one that left may have been the slow one
}

void TerminalSession::readMaster()
{
    if (m_masterDone || m_outputPaused)
        return;
    m_master.async_read_some(
        asio::buffer(m_readBuffer),
        [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) {
            if (ec) {
                // EIO once every holder of the terminal's other side closed it.
                self->m_masterDone = true;
                return self->maybeEnd();
            }
            auto chunk = std::make_shared<const std::string>(self->m_readBuffer.data(), n);
            bool congested = false;
            {
                std::lock_guard lock(self->m_mutex);
                self->m_ring.append(*chunk);
                for (const auto& c : self->m_clients)
                    c->output(chunk);
                congested = self->clientsCongested(kClientHighWater);
            }
            if (congested)
                self->m_outputPaused = true;
            else
                self->readMaster();
        });
}

bool TerminalSession::clientsCongested(std::size_t limit) const
{
    for (const auto& c : m_clients)
        if (c->queuedBytes() > limit)
            return true;
    return false;
}

void TerminalSession::clientProgress()
{
    asio::post(m_strand, [self = shared_from_this()] {
        if (!self->m_outputPaused)
            return;
        {
            std::lock_guard lock(self->m_mutex);
            if (self->clientsCongested(kClientLowWater))
                return;
        }
        self->m_outputPaused = false;
        self->readMaster();
    });
}

void TerminalSession::readAgent()
{
    if (m_agentDone)
        return;
    m_agent.async_read_some(
        asio::buffer(m_agentBuffer),
        [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) {
            if (ec) {
                self->m_agentDone = true;
                return self->maybeEnd();
            }
            self->m_agentReceived.append(self->m_agentBuffer.data(), n);
            self->parseAgentFrames();
            self->readAgent();
        });
}

// The agent sends one J frame after its answer: {"exitCode":N} when the program ended.
void TerminalSession::parseAgentFrames()
{
    while (m_agentReceived.size() >= agent::kFrameHeaderSize) {
        const auto* header = reinterpret_cast<const unsigned char*>(m_agentReceived.data());
        const std::uint32_t length = agent::decodeFrameLength(header);
        if (length > agent::kMaxFramePayload) {
            m_agentReceived.clear();
            return;
        }
        if (m_agentReceived.size() < agent::kFrameHeaderSize + length)
            return;
        if (char(header[0]) == agent::kFrameJson) {
            auto j = nlohmann::json::parse(m_agentReceived.substr(agent::kFrameHeaderSize, length),
                                           nullptr, false);
            if (j.is_object() && j.contains("exitCode") && j["exitCode"].is_number_integer())
                m_exitCode = j["exitCode"].get<int>();
        }
        m_agentReceived.erase(0, agent::kFrameHeaderSize + length);
    }
    if (m_exitCode)
        maybeEnd();
}

void TerminalSession::input(std::string bytes)
{
    if (bytes.empty())
        return;
    asio::post(m_strand, [self = shared_from_this(), bytes = std::move(bytes)] {
        if (self->m_ended || self->m_closing)
            return;
        self->m_input += bytes;
        if (self->m_input.size() + self->m_inFlight.size() > kInputBacklog &&
            !self->m_inputPaused) {
            self->m_inputPaused = true;
            std::lock_guard lock(self->m_mutex);
            self->pauseClientsInput(true);
        }
        self->writeInput();
    });
}

void TerminalSession::pauseClientsInput(bool paused)
{
    for (const auto& c : m_clients)
        c->pauseInput(paused);
}

void TerminalSession::writeInput()
{
    if (m_writing || m_ended)
        return;
    if (m_inFlight.empty())
        m_inFlight.swap(m_input);
    if (m_inFlight.empty())
        return;
    m_writing = true;
    m_master.async_write_some(
        asio::buffer(m_inFlight),
        [self = shared_from_this()](const boost::system::error_code& ec, std::size_t n) {
            self->m_writing = false;
            if (ec) {
                self->m_inFlight.clear();
                self->m_input.clear();
                return;
            }
            self->m_inFlight.erase(0, n);
            const std::size_t queued = self->m_input.size() + self->m_inFlight.size();
            if (self->m_inputPaused && queued < kInputBacklog / 2) {
                self->m_inputPaused = false;
                std::lock_guard lock(self->m_mutex);
                self->pauseClientsInput(false);
            }
            self->writeInput();
        });
}

Status TerminalSession::resize(int cols, int rows)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_info.running || m_masterFd < 0)
            return Error{ErrorKind::Conflict, "TERMINAL_ENDED", "the terminal's program has ended"};
        winsize ws{};
        ws.ws_col = static_cast<unsigned short>(cols);
        ws.ws_row = static_cast<unsigned short>(rows);
        // The kernel sends SIGWINCH to the terminal's foreground process group.
        if (::ioctl(m_masterFd, TIOCSWINSZ, &ws) != 0)
            return Error{ErrorKind::Internal, "IO_ERROR", "could not resize the terminal"};
        if (m_info.cols == cols && m_info.rows == rows)
            return okStatus();
        m_info.cols = cols;
        m_info.rows = rows;
        for (const auto& c : m_clients)
            c->resized(cols, rows);
    }
    return okStatus();
}

Status TerminalSession::signal(int sig)
{
    std::lock_guard lock(m_mutex);
    if (!m_info.running || m_masterFd < 0)
        return Error{ErrorKind::Conflict, "TERMINAL_ENDED", "the terminal's program has ended"};
    // As the terminal's own keys would: to its foreground process group (the program at the
    // prompt, not the shell behind it).
    if (::ioctl(m_masterFd, TIOCSIG, sig) != 0)
        return Error{ErrorKind::Internal, "IO_ERROR", "could not signal the terminal's programs"};
    return okStatus();
}

void TerminalSession::rename(std::string name)
{
    std::lock_guard lock(m_mutex);
    m_info.name = std::move(name);
}

void TerminalSession::close(std::string by)
{
    asio::post(m_strand, [self = shared_from_this(), by = std::move(by)] {
        if (self->m_ended || self->m_closing)
            return;
        self->m_closing = true;
        {
            std::lock_guard lock(self->m_mutex);
            self->m_info.closedBy = by;
        }
        boost::system::error_code ignored;
        // The agent sees the hang-up: SIGHUP for the program, SIGKILL for its tree after 2 s.
        self->m_agent.close(ignored);
        self->m_endTimer.expires_after(kWaitForExitCode);
        self->m_endTimer.async_wait([self](const boost::system::error_code& ec) {
            if (!ec)
                self->end();
        });
    });
}

void TerminalSession::sandboxEnded()
{
    asio::post(m_strand, [self = shared_from_this()] { self->end("sandbox ended"); });
}

void TerminalSession::maybeEnd()
{
    if (m_ended)
        return;
    if (m_masterDone && (m_agentDone || m_exitCode))
        return end();
    if (m_closing && m_masterDone)
        return end(); // hung up: what the agent reports next is no exit of its own
    if (m_closing)
        return; // close() armed the timer
    if (m_masterDone || m_exitCode || m_agentDone) {
        m_endTimer.expires_after(m_masterDone ? std::chrono::milliseconds(kWaitForExitCode)
                                              : kDrainAfterExit);
        m_endTimer.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
            if (!ec)
                self->end();
        });
    }
}

void TerminalSession::end(const char* reason)
{
    if (m_ended)
        return;
    m_ended = true;
    m_endTimer.cancel();
    boost::system::error_code ignored;
    TerminalInfo ended;
    {
        std::lock_guard lock(m_mutex);
        m_masterFd = -1;
        m_master.close(ignored);
        m_agent.close(ignored);
        m_info.running = false;
        m_info.endedAtMs = nowMs();
        m_info.exitCode = m_closing ? std::nullopt : m_exitCode;
        m_info.endReason = reason != nullptr ? reason
                           : m_closing       ? "closed"
                           : m_exitCode      ? "exited"
                                             : "sandbox ended";
        ended = m_info;
        for (const auto& c : m_clients)
            c->ended(ended);
        m_clients.clear();
    }
    if (auto cb = std::move(m_onEnded))
        cb(ended);
}

} // namespace lizard::sandboxes
