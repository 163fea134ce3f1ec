#pragma once
// One connection to an agent socket with frame-level async reads and writes (asio).
// Handlers run on the executor the connection was made with (a strand).
//
// Every wait has a deadline (agentlimits.h): connect and each write T; a silence of T on a
// frame read either fails (Strict) or, in Probe mode, pings the agent on a side connection
// and waits on while it answers (a quiet command, a long remove). A missed deadline closes
// the socket: pending handlers see an error and failure() says SANDBOX_UNRESPONSIVE.

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
#include <vector>

namespace lizard::runtime {

class AgentConnection : public std::enable_shared_from_this<AgentConnection>
{
public:
    using Handler = std::function<void(const boost::system::error_code&)>;
    // payload stays valid until the next readFrame.
    using FrameHandler = std::function<void(const boost::system::error_code&, char type,
                                            const std::string& payload)>;
    enum class ReadWait { Strict, Probe };

    AgentConnection(boost::asio::any_io_executor ex, std::string socketPath);

    // Waits for a call slot of the sandbox (SANDBOX_BUSY (LimitReached) if none frees in time),
    // then connects. nullopt when connected.
    void open(CallKind kind, std::function<void(std::optional<Error>)> done);
    void connect(Handler done); // without a slot: liveness pings only
    // Queues a frame; frames go out in order. `done` (optional) after it was written.
    void writeFrame(char type, std::string payload, Handler done = nullptr);
    void readFrame(FrameHandler done);
    void close();
    bool closed() const { return m_closed; }
    boost::asio::any_io_executor executor() const { return m_ex; }

    // How frame reads wait from now on, and their deadline when Strict.
    void setReadWait(ReadWait wait, std::chrono::milliseconds strictLimit);
    // The error for a failed operation: SANDBOX_UNRESPONSIVE after a missed deadline, else
    // SANDBOX_UNREACHABLE with `what`.
    Error failure(const std::string& what) const;

private:
    void writeNext();
    void arm();
    void onDeadline(unsigned generation);
    void expire(const std::string& what);

    boost::asio::any_io_executor m_ex;
    std::string m_path;
    boost::asio::local::stream_protocol::socket m_socket;
    boost::asio::steady_timer m_timer;
    unsigned m_generation = 0;
    std::shared_ptr<AgentSlot> m_slot;
    std::array<unsigned char, 5> m_header{};
    std::string m_payload;
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
