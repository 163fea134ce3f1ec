#include "sandboxes/desktopcommand.h"

#include "runtime/agentclient.h"

#include <charconv>
#include <memory>
#include <sstream>

namespace lizard::sandboxes {

namespace {

constexpr std::size_t kMaxOutput = 64 * 1024;
// Start waits for Xvfb and four listeners (10 s each at most); stop for the processes to end.
constexpr int kCommandTimeoutMs = 60000;

int sizeField(const std::string& text)
{
    int v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    return ec == std::errc() && end == text.data() + text.size() && v > 0 ? v : -1;
}

} // namespace

void runDesktopCommand(boost::asio::any_io_executor ex, const std::string& socketPath,
                       std::vector<std::string> args, std::map<std::string, std::string> env,
                       std::function<void(Result<DesktopCommandResult>)> done)
{
    auto agent = std::make_shared<runtime::AgentClient>(ex, socketPath);
    runtime::ExecRequest req;
    req.argv = {"lizard-desktop"};
    req.argv.insert(req.argv.end(), args.begin(), args.end());
    req.env = std::move(env);
    req.cwd = "/";
    req.user = "root";
    req.timeoutMs = kCommandTimeoutMs;
    req.helper = true; // Xvfb and the VNC servers are the desktop, not the sandbox's code
    auto result = std::make_shared<DesktopCommandResult>();
    auto finish =
        std::make_shared<std::function<void(Result<DesktopCommandResult>)>>(std::move(done));
    runtime::ExecHandlers h;
    h.onStarted = [](int) {};
    h.onOutput = [result](runtime::OutStream s, std::string_view chunk,
                          std::function<void()> resume) {
        std::string& to = s == runtime::OutStream::Stdout ? result->out : result->err;
        if (to.size() < kMaxOutput)
            to.append(chunk.substr(0, kMaxOutput - to.size()));
        resume();
    };
    h.onExit = [agent, result, finish](int exitCode, bool timedOut) {
        if (timedOut)
            return (*finish)(
                Error{ErrorKind::Timeout, "TIMEOUT", "the desktop command did not finish in time"});
        result->exitCode = exitCode;
        (*finish)(*result);
    };
    h.onError = [agent, finish](const Error& e) { (*finish)(e); }; // the route answers it
    agent->exec(std::move(req), std::move(h));
}

Result<DesktopState> parseDesktopState(const std::string& out)
{
    std::istringstream lines(out);
    std::string line;
    std::string last;
    while (std::getline(lines, line))
        if (!line.empty())
            last = line;
    std::istringstream words(last);
    std::string state, w, h, extra;
    words >> state >> w >> h;
    const bool unsized = w == "-" && h == "-";
    DesktopState s;
    s.running = state == "running";
    s.width = unsized ? 0 : sizeField(w);
    s.height = unsized ? 0 : sizeField(h);
    if ((state != "running" && state != "stopped") || s.width < 0 || s.height < 0 ||
        (words >> extra) || (s.running && unsized))
        return Error{ErrorKind::Internal, "INTERNAL",
                     "unexpected answer of lizard-desktop: " + last.substr(0, 200)};
    return s;
}

} // namespace lizard::sandboxes
