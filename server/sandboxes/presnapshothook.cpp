#include "sandboxes/presnapshothook.h"

#include "common/log.h"
#include "runtime/agentclient.h"

#include <memory>

namespace lizard::sandboxes {

namespace {

bool executableFile(const nlohmann::json& entry)
{
    if (entry.value("type", "") != "file")
        return false;
    const std::string mode = entry.value("mode", "");
    if (mode.empty())
        return false;
    int bits = 0;
    for (char c : mode) {
        if (c < '0' || c > '7')
            return false;
        bits = bits * 8 + (c - '0');
    }
    return (bits & 0111) != 0;
}

} // namespace

void runPreSnapshotHook(boost::asio::any_io_executor ex, const std::string& sandboxId,
                        const std::string& socketPath, std::function<void()> done)
{
    auto agent = std::make_shared<runtime::AgentClient>(ex, socketPath);
    agent->request({{"op", "stat"}, {"path", kPreSnapshotHook}},
                   [agent, sandboxId, done = std::move(done)](Result<nlohmann::json> r) mutable {
                       const nlohmann::json entry =
                           r ? r->value("entry", nlohmann::json::object()) : nlohmann::json();
                       if (!r || !executableFile(entry))
                           return done(); // no hook: nothing to save
                       runtime::ExecRequest req;
                       req.argv = {kPreSnapshotHook};
                       req.cwd = "/";
                       // Its owner: whoever installed it (the code runner, as the user its kernels
                       // run as).
                       req.user = entry.value("owner", std::string("user"));
                       req.timeoutMs = kPreSnapshotHookTimeoutMs;
                       auto output = std::make_shared<std::string>();
                       auto finish = std::make_shared<std::function<void()>>(std::move(done));
                       runtime::ExecHandlers h;
                       h.onStarted = [](int) {};
                       h.onOutput = [output](runtime::OutStream, std::string_view chunk,
                                             std::function<void()> resume) {
                           if (output->size() < 2048)
                               output->append(chunk.substr(0, 2048 - output->size()));
                           resume();
                       };
                       h.onExit = [agent, sandboxId, output, finish](int exitCode, bool timedOut) {
                           if (exitCode != 0 || timedOut)
                               log::warn("sandbox " + sandboxId + ": pre-snapshot hook " +
                                         (timedOut ? std::string("timed out")
                                                   : "exited with " + std::to_string(exitCode)) +
                                         (output->empty() ? std::string() : ": " + *output));
                           (*finish)();
                       };
                       h.onError = [agent, sandboxId, finish](const Error& e) {
                           log::warn("sandbox " + sandboxId +
                                     ": pre-snapshot hook did not run: " + e.message);
                           (*finish)();
                       };
                       agent->exec(std::move(req), std::move(h));
                   });
}

} // namespace lizard::sandboxes
