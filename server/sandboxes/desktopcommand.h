#pragma once
// Runs the desktop template's in-sandbox `lizard-desktop` command (agent/tools/desktopscripts.cpp)
// through the sandbox's agent, like an exec, and collects its output.

#include "common/result.h"

#include <boost/asio/any_io_executor.hpp>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace lizard::sandboxes {

struct DesktopCommandResult
{
    int exitCode = 0;
    std::string out; // stdout, at most 64 KiB
    std::string err; // stderr, at most 64 KiB
};

// The state `lizard-desktop status` (and start) prints: "running|stopped WIDTH HEIGHT", the
// size being "- -" before the first start.
struct DesktopState
{
    bool running = false;
    int width = 0; // 0: never started
    int height = 0;
};

// `done` runs once on `ex`: the command's result, or an Error when it could not run.
void runDesktopCommand(boost::asio::any_io_executor ex, const std::string& socketPath,
                       std::vector<std::string> args, std::map<std::string, std::string> env,
                       std::function<void(Result<DesktopCommandResult>)> done);

// Parses the last line of the command's stdout; an Error names what came instead.
Result<DesktopState> parseDesktopState(const std::string& out);

} // namespace lizard::sandboxes
