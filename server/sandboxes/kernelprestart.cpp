#include "sandboxes/kernelprestart.h"

#include "common/log.h"
#include "runtime/agentclient.h"
#include "sandboxes/runnersource.h"

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

namespace lizard::sandboxes {

namespace {

// base64 of {"action":"prestart"}: the runner's one argument.
constexpr const char* kPrestartArgument = "eyJhY3Rpb24iOiJwcmVzdGFydCJ9";
constexpr std::size_t kMaxPrestartOutput = 64 * 1024;

Error prestartError(std::string message)
{
    return Error{ErrorKind::Internal, "KERNEL_PRESTART",
                 "the kernel was not pre-started: " + std::move(message)};
}

// The runner's answer: its last "ok" or "fatal" event.
Status answerOf(const std::string& stdoutText, const std::string& stderrText, int exitCode)
{
    std::istringstream lines(stdoutText);
    std::string line, fatal;
    bool ok = false;
    while (std::getline(lines, line)) {
        const auto ev = nlohmann::json::parse(line, nullptr, false);
        if (!ev.is_object())
            continue;
        const std::string type = ev.value("type", "");
        ok = ok || type == "ok";
        if (type == "fatal")
            fatal = ev.value("message", "");
    }
    if (ok && exitCode == 0)
        return okStatus();
    if (!fatal.empty())
        return prestartError(fatal);
    return prestartError("the runner exited with " + std::to_string(exitCode) +
                         (stderrText.empty() ? std::string() : ": " + stderrText));
}

} // namespace

Status prestartKernel(const std::string& socketPath, int timeoutMs)
{
    boost::asio::io_context io;
    runtime::AgentClient agent(io.get_executor(), socketPath);
    runtime::ExecRequest req;
    req.argv = {"python3", "-c", runnerSource(), kPrestartArgument};
    // As the SDK's runner and the app's run theirs: root of the sandbox, no envs of its own.
    req.user = "root";
    req.timeoutMs = timeoutMs;
    std::string out, err;
    std::optional<Status> result;
    runtime::ExecHandlers h;
    h.onStarted = [](int) {};
    h.onOutput = [&](runtime::OutStream stream, std::string_view chunk,
                     std::function<void()> resume) {
        std::string& to = stream == runtime::OutStream::Stdout ? out : err;
        if (to.size() < kMaxPrestartOutput)
            to.append(chunk.substr(0, kMaxPrestartOutput - to.size()));
        resume();
    };
    h.onExit = [&](int exitCode, bool timedOut) {
        result = timedOut ? Status(prestartError("it took longer than " +
                                                 std::to_string(timeoutMs / 1000) + " s"))
                          : answerOf(out, err.substr(err.size() > 2000 ? err.size() - 2000 : 0),
                                     exitCode);
    };
    h.onError = [&](const Error& e) { result = Status(prestartError(e.message)); };
    agent.exec(std::move(req), std::move(h));
    io.run();
    if (!result)
        return prestartError("the agent did not answer");
    if (!*result)
        return *result;
    // And the runners (the official SDK's, and ours, which it compiles now): their first run
    // forks from a warm python3 too. Without it the kernel still runs (and the claim must still
    // hand it the envs): only a warning.
    std::string zygote = "the agent did not answer";
    agent.request(
        {{"op", "warmRunner"}, {"shippedRunner", runnerSource()}},
        [&](Result<nlohmann::json> r) { zygote = r ? std::string() : r.error().message; });
    io.restart();
    io.run();
    if (!zygote.empty())
        log::warn("a warm copy's runner zygote did not start: " + zygote);
    return okStatus();
}

} // namespace lizard::sandboxes
