#include "api/changearchive.h"

#include "api/streamwriter.h"

#include <array>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <csignal>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

namespace lizard::api {

namespace {

constexpr std::size_t kMaxHeadLine = 4096;
// After its output ends the tool exits at once; past this it is killed.
constexpr int kReapTries = 250; // 5 s
constexpr auto kReapEvery = std::chrono::milliseconds(20);

class ToolPump : public std::enable_shared_from_this<ToolPump>
{
public:
    ToolPump(std::shared_ptr<http::Exchange> ex, runtime::ToolStream tool, std::string type)
        : m_ex(std::move(ex)), m_writer(std::make_shared<StreamWriter>(m_ex)),
          m_in(m_ex->executor(), tool.fd), m_timer(m_ex->executor()), m_pid(tool.pid),
          m_type(std::move(type))
    {
    }

    void start()
    {
        std::weak_ptr<ToolPump> weak = shared_from_this();
        const auto stop = [weak] {
            if (auto self = weak.lock())
                self->stop();
        };
        m_writer->onFailure(stop);
        m_ex->onClientGone(stop);
        read();
    }

private:
    void read()
    {
        m_in.async_read_some(boost::asio::buffer(m_buf),
                             [self = shared_from_this()](const boost::system::error_code& ec,
                                                         std::size_t n) { self->got(ec, n); });
    }

    void got(const boost::system::error_code& ec, std::size_t n)
    {
        if (m_stopped)
            return;
        if (ec)
            return finished();
        if (!m_writer->begun()) {
            m_head.append(m_buf.data(), n);
            const auto newline = m_head.find('\n');
            if (newline == std::string::npos)
                return m_head.size() > kMaxHeadLine ? finished() : read();
            const auto head = nlohmann::json::parse(m_head.substr(0, newline), nullptr, false);
            if (!head.is_object() || !head.value("ok", false)) {
                m_error = head.is_object() ? head.value("error", std::string()) : std::string();
                return finished();
            }
            m_writer->begin(200, m_type, std::nullopt);
            std::string rest = m_head.substr(newline + 1);
            m_head.clear();
            if (rest.empty())
                return read();
            return m_writer->write(std::move(rest), [self = shared_from_this()] { self->read(); });
        }
        m_writer->write(std::string(m_buf.data(), n),
                        [self = shared_from_this()] { self->read(); });
    }

    // The output ended: the tool's exit says whether it was whole.
    void finished()
    {
        boost::system::error_code ignored;
        m_in.close(ignored);
        reap(0);
    }

    void reap(int tries)
    {
        if (m_pid <= 0)
            return;
        m_reaping = true;
        int status = 0;
        pid_t r = ::waitpid(m_pid, &status, WNOHANG);
        if (r == 0 && tries < kReapTries) {
            m_timer.expires_after(kReapEvery);
            m_timer.async_wait([self = shared_from_this(), tries](
                                   const boost::system::error_code&) { self->reap(tries + 1); });
            return;
        }
        const bool hung = r == 0;
        if (hung) {
            ::kill(m_pid, SIGKILL);
            r = ::waitpid(m_pid, &status, 0);
        }
        m_pid = -1;
        const bool whole = !hung && r > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (m_stopped)
            return;
        if (!m_writer->begun())
            return m_ex->replyError(Error{ErrorKind::Internal, "CHANGES_FAILED",
                                          "the archive could not be made" +
                                              (m_error.empty() ? std::string() : ": " + m_error)});
        if (whole)
            m_writer->end();
        else
            m_writer->abort();
    }

    void stop()
    {
        if (m_stopped)
            return;
        m_stopped = true;
        if (m_pid > 0)
            ::kill(m_pid, SIGKILL);
        boost::system::error_code ignored;
        m_in.close(ignored); // the tool's next write fails: it ends
        if (!m_reaping)
            reap(0);
    }

    std::shared_ptr<http::Exchange> m_ex;
    std::shared_ptr<StreamWriter> m_writer;
    boost::asio::posix::stream_descriptor m_in;
    boost::asio::steady_timer m_timer;
    pid_t m_pid;
    std::string m_type;
    std::string m_head;
    std::string m_error;
    bool m_stopped = false;
    bool m_reaping = false;
    std::array<char, 128 * 1024> m_buf{};
};

} // namespace

void streamToolOutput(const std::shared_ptr<http::Exchange>& ex, runtime::ToolStream tool,
                      std::string contentType)
{
    std::make_shared<ToolPump>(ex, tool, std::move(contentType))->start();
}

} // namespace lizard::api
