// AgentClient::connectPort and openTerminal: the "connect" and "pty" requests, whose replies
// carry a descriptor (SCM_RIGHTS). asio's reads drop ancillary data, so the reply is read with
// recvmsg here.
#include "agent/serve/frame.h"
#include "runtime/agentclient.h"
#include "runtime/agenterrors.h"
#include "runtime/agentgate.h"

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>
#include <cstring>
#include <sys/socket.h>
#include <unistd.h>

namespace lizard::runtime {

namespace asio = boost::asio;

namespace {

// Longer than the agent's own connect timeout (10 s), so that its CONNECT_TIMEOUT arrives.
constexpr auto kConnectTimeout = std::chrono::seconds(15);

// One request whose successful reply carries a descriptor. With `keepConnection` the
// connection is handed over too (the "pty" request's exit code comes on it later).
struct FdReplyOp : std::enable_shared_from_this<FdReplyOp>
{
    FdReplyOp(asio::any_io_executor ex, bool keep, std::function<void(Result<DescriptorReply>)> d)
        : socket(ex), timer(ex), keepConnection(keep), done(std::move(d))
    {
    }
    ~FdReplyOp()
    {
        if (fd >= 0)
            ::close(fd);
    }

    asio::local::stream_protocol::socket socket;
    asio::steady_timer timer;
    const bool keepConnection;
    std::function<void(Result<DescriptorReply>)> done;
    std::string request;
    std::string received;
    std::shared_ptr<AgentSlot> slot;
    int fd = -1;
    bool finished = false;

    void finish(Result<DescriptorReply> result)
    {
        if (finished)
            return;
        finished = true;
        timer.cancel();
        boost::system::error_code ignored;
        if (result && keepConnection)
            result->connection = socket.release(ignored);
        socket.close(ignored);
        slot.reset();
        auto d = std::move(done);
        d(std::move(result));
    }

    void start(const std::string& path)
    {
        timer.expires_after(kConnectTimeout);
        timer.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
            if (!ec)
                self->finish(agentUnresponsive("no answer within 15 s"));
        });
        socket.async_connect(asio::local::stream_protocol::endpoint(path),
                             [self = shared_from_this()](const boost::system::error_code& ec) {
                                 if (ec)
                                     return self->finish(agentUnreachable(ec.message()));
                                 self->sendRequest();
                             });
    }

    void sendRequest()
    {
        asio::async_write(
            socket, asio::buffer(request),
            [self = shared_from_this()](const boost::system::error_code& ec, std::size_t) {
                if (ec)
                    return self->finish(agentUnreachable(ec.message()));
                self->waitReply();
            });
    }

    void waitReply()
    {
        socket.async_wait(asio::socket_base::wait_read,
                          [self = shared_from_this()](const boost::system::error_code& ec) {
                              if (self->finished)
                                  return;
                              if (ec)
                                  return self->finish(agentUnreachable(ec.message()));
                              self->readSome();
                          });
    }

    void readSome()
    {
        char buf[4096];
        iovec iov{buf, sizeof buf};
        alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)] = {};
        msghdr msg{};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control;
        msg.msg_controllen = sizeof control;
        ssize_t n = ::recvmsg(socket.native_handle(), &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
            return waitReply();
        if (n < 0)
            return finish(agentUnreachable(std::strerror(errno)));
        takeDescriptors(msg);
        if (n == 0)
            return finish(agentUnreachable("the agent closed the connection"));
        received.append(buf, std::size_t(n));
        if (received.size() < agent::kFrameHeaderSize)
            return waitReply();
        const auto* header = reinterpret_cast<const unsigned char*>(received.data());
        const std::uint32_t length = agent::decodeFrameLength(header);
        if (char(header[0]) != agent::kFrameJson || length > agent::kMaxFramePayload)
            return finish(agentUnreachable("unexpected frame"));
        if (received.size() < agent::kFrameHeaderSize + length)
            return waitReply();
        auto j =
            nlohmann::json::parse(received.substr(agent::kFrameHeaderSize, length), nullptr, false);
        if (!j.is_object())
            return finish(agentUnreachable("malformed reply"));
        if (!j.value("ok", false))
            return finish(agentError(j));
        if (fd < 0)
            return finish(agentUnreachable("the agent sent no descriptor"));
        DescriptorReply out;
        out.fd = fd;
        out.reply = std::move(j);
        out.after = received.substr(agent::kFrameHeaderSize + length);
        fd = -1;
        finish(std::move(out));
    }

    // Keeps the first descriptor received; closes any other.
    void takeDescriptors(msghdr& msg)
    {
        for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
                continue;
            const std::size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
            for (std::size_t i = 0; i < count; ++i) {
                int got = -1;
                std::memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof got);
                if (fd < 0)
                    fd = got;
                else
                    ::close(got);
            }
        }
    }
};

} // namespace

void AgentClient::descriptorRequest(const nlohmann::json& req, bool keepConnection,
                                    std::function<void(Result<DescriptorReply>)> done)
{
    auto op = std::make_shared<FdReplyOp>(m_ex, keepConnection, std::move(done));
    const std::string json = req.dump();
    op->request.assign(agent::kFrameHeaderSize, '\0');
    agent::encodeFrameHeader(reinterpret_cast<unsigned char*>(op->request.data()),
                             agent::kFrameJson, std::uint32_t(json.size()));
    op->request += json;
    acquireAgentSlot(m_ex, m_socketPath, CallKind::Other,
                     [op, path = m_socketPath](std::shared_ptr<AgentSlot> slot) {
                         if (!slot)
                             return op->finish(sandboxBusy(CallKind::Other));
                         op->slot = std::move(slot);
                         op->start(path);
                     });
}

void AgentClient::connectPort(int port, std::function<void(Result<int>)> done)
{
    descriptorRequest({{"op", "connect"}, {"port", port}}, false,
                      [done = std::move(done)](Result<DescriptorReply> r) {
                          if (!r)
                              return done(r.error());
                          done(r->fd);
                      });
}

void AgentClient::openTerminal(nlohmann::json req,
                               std::function<void(Result<DescriptorReply>)> done)
{
    req["op"] = "pty";
    descriptorRequest(req, true, std::move(done));
}

} // namespace lizard::runtime
