#pragma once
// lizard-local as a whole: data dir, lock, store, key, runtime, HTTP; runs until SIGINT/SIGTERM.

#include "common/options.h"

namespace lizard::service {

// Exit codes: 0 clean stop, 1 startup failure, 3 another instance runs on this data dir.
int runService(const Options& options);

} // namespace lizard::service
