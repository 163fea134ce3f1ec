#pragma once
// One connection to an agent socket with frame-level async reads and writes (asio).
// Handlers run on the executor the connection was made with (a strand).
//
// Every wait has a deadline (agentlimits.h): connect and each write T; a silence of T on a
// frame read either fails (Strict) or, in Probe mode, pings the agent on a side connection
// and waits on while it answers (a quiet command, a long remove). A missed deadline closes
// the socket: pending handlers see an error and failure() says SANDBOX_UNRESPONSIVE.
//
// Reads take whatever has arrived (up to kReadChunk, 256 KiB) in one call, so a command's output
// that came as many frames costs one system call, not two per frame. The deadline is one timer that
// is moved, not re-armed, on every step: it only checks the time when it fires.

#include "common/result.h"
#include "runtime/agentgate.h"

#include <array>
#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/system/error_code.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lizard::runtime {

class AgentConnection : public std::enable_shared_from_this<AgentConnection>
{
public:
    using Handler = std::function<void(const boost::system::error_code&)>;
    // payload stays valid until the next readFrame or nextBufferedFrame.
    using FrameHandler =
        std::function<void(const boost::system::error_code&, char type, std::string_view payload)>;
    enum class ReadWait { Strict, Probe };

    AgentConnection(boost::asio::any_io_executor ex, std::string socketPath);

    // Waits for a call slot of the sandbox (SANDBOX_BUSY (LimitReached) if none frees in time),
    // then connects. nullopt when connected.
    void open(CallKind kind, std::function<void(std::optional<Error>)> done);
    void connect(Handler done); // without a slot: liveness pings only
    // Queues a frame; frames go out in order. `done` (optional) after it was written.
    void writeFrame(char type, std::string payload, Handler done = nullptr);
    // The next frame; the handler runs through the executor (never inside this call), at once
    // when the frame was already read with an earlier one.
    void readFrame(FrameHandler done);
    // A frame already read whole, taken without waiting: false (and nothing taken) when there
    // is none. For a loop that handles a burst of frames without a trip through the executor.
    bool nextBufferedFrame(char& type, std::string_view& payload);
    void close();
    bool closed() const { return m_closed; }
    boost::asio::any_io_executor executor() const { return m_ex; }

    // How frame reads wait from now on, and their deadline when Strict.
    void setReadWait(ReadWait wait, std::chrono::milliseconds strictLimit);
    // The error for a failed operation: SANDBOX_UNRESPONSIVE after a missed deadline, else
    // SANDBOX_UNREACHABLE with `what`.
    Error failure(const std::string& what) const;

    // Bytes asked of the socket per read (more when a frame is bigger).
    static constexpr std::size_t kReadChunk = 256 * 1024;

private:
    void writeNext();
    void readMore(FrameHandler done);
    // The size of the whole frame at the front of the buffer (header included), 0 while not
    // even its header is there; error set for a frame over the limit of its type.
    std::size_t frontFrameSize(boost::system::error_code& error) const;
    void arm();
    void waitTimer(std::chrono::steady_clock::time_point at);
    void onTimer();
    void onDeadline(unsigned generation);
    void expire(const std::string& what);

    boost::asio::any_io_executor m_ex;
    std::string m_path;
    boost::asio::local::stream_protocol::socket m_socket;
    boost::asio::steady_timer m_timer;
    unsigned m_generation = 0;
    // When the current step's deadline passes (max: nothing pending); the timer waits for
    // m_timerAt, which is never later than m_deadline, and moves on when it fires early.
    std::chrono::steady_clock::time_point m_deadline = std::chrono::steady_clock::time_point::max();
    std::chrono::steady_clock::time_point m_timerAt = std::chrono::steady_clock::time_point::max();
    unsigned m_timerWait = 0; // the timer wait whose end counts; an older one was moved
    std::shared_ptr<AgentSlot> m_slot;
    // Bytes read and not yet handed out: [m_begin, m_end) of m_buffer (m_capacity bytes).
    std::unique_ptr<char[]> m_buffer;
    std::size_t m_capacity = 0;
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
    std::size_t m_readSize = 4096; // doubles up to kReadChunk while reads fill the room
    struct Pending
    {
        std::array<unsigned char, 5> header;
        std::string payload;
        Handler done;
    };
    std::vector<std::shared_ptr<Pending>> m_queue;
    bool m_connecting = false;
    bool m_writing = false;
    enum class Reading { No, Header, Payload } m_reading = Reading::No;
    ReadWait m_readWait = ReadWait::Strict;
    std::chrono::milliseconds m_strictLimit;
    bool m_closed = false;
    std::string m_timedOut; // what was awaited when a deadline passed; empty: none did
};

} // namespace lizard::runtime
