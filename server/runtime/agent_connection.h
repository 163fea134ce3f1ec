#pragma once
// One connection to an agent socket with frame-level async reads and writes (asio).
// Handlers run on the executor the connection was made with.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/system/error_code.hpp>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace lizard::runtime {

class AgentConnection : public std::enable_shared_from_this<AgentConnection>
{
public:
    using Handler = std::function<void(const boost::system::error_code&)>;
    // payload stays valid until the next readFrame.
    using FrameHandler = std::function<void(const boost::system::error_code&, char type, const std::string& payload)>;

    AgentConnection(boost::asio::any_io_executor ex, std::string socketPath);

    void connect(Handler done);
    // Queues a frame; frames go out in order. `done` (optional) after it was written.
    void writeFrame(char type, std::string payload, Handler done = nullptr);
    void readFrame(FrameHandler done);
    void close();
    bool closed() const { return m_closed; }
    boost::asio::any_io_executor executor() const { return m_ex; }

private:
    void writeNext();

    boost::asio::any_io_executor m_ex;
    std::string m_path;
    boost::asio::local::stream_protocol::socket m_socket;
    std::array<unsigned char, 5> m_header{};
    std::string m_payload;
    struct Pending
    {
        std::array<unsigned char, 5> header;
        std::string payload;
        Handler done;
    };
    std::vector<std::shared_ptr<Pending>> m_queue;
    bool m_writing = false;
    bool m_closed = false;
};

} // namespace lizard::runtime
