#pragma once
// The pre-snapshot hook: just before a snapshot or a fork copies a sandbox's files, the
// executable /tmp/.lizard-code/.hooks/pre-snapshot in the sandbox (if there) runs, so that
// programs can save state to files first (the code runner saves Python variables with dill).
// It runs as the user owning it, in /, for at most 15 s; a failure is logged, never fatal.

#include <boost/asio/any_io_executor.hpp>
#include <functional>
#include <string>

namespace lizard::sandboxes {

inline constexpr const char* kPreSnapshotHook = "/tmp/.lizard-code/.hooks/pre-snapshot";
inline constexpr int kPreSnapshotHookTimeoutMs = 15000;

// `done` runs exactly once on `ex`, after the hook ended (or was not there).
void runPreSnapshotHook(boost::asio::any_io_executor ex, const std::string& sandboxId,
                        const std::string& socketPath, std::function<void()> done);

} // namespace lizard::sandboxes
