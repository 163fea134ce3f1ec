#pragma once
// Which action makes sense for a sandbox in which status. One table, used by the
// toolbar and the context menu, and by tests.

#include "client/types.h"

#include <QString>

namespace lizard::models {

enum class SandboxAction { Pause, Resume, Snapshot, Fork, Extend, Kill };

// running: pause, snapshot, fork, extend, kill; paused: resume, snapshot (the server freezes
// the sandbox while capturing anyway), extend, kill; any other status (failed, stopped, unknown):
// kill. An empty status counts as running: the cloud's list holds running sandboxes only. `busy`
// (an operation of ours on it is in flight) allows only kill.
bool sandboxActionAllowed(SandboxAction action, const QString& status, bool busy = false);

// A 429's message also says the limit and how many sandboxes run (for the banner).
client::ApiError withLimitDetails(client::ApiError error);

// Why one copy of a fork could not be made, with the same limit details:
// "SANDBOX_LIMIT: too many [limit 1, 1 running] (retry in 5 s)".
QString forkFailureText(const client::ForkEntry& entry);

} // namespace lizard::models
