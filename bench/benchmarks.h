#pragma once
// The four figures of `make bench`, each measured against a running lizard-local.

#include "apiclient.h"
#include "figure.h"
#include "session.h"

#include <optional>
#include <string>

namespace lizard::bench {

// Sandbox create -> running: median of `runs` creates (each deleted afterwards, untimed).
Figure measureCreate(Session& session, int runs, std::optional<Reference> reference);

// POST /exec of `true` (argv form) on one keep-alive connection: median round trip of `runs`.
Figure measureExec(ApiClient& api, const std::string& sandboxId, int runs,
                   std::optional<Reference> reference);

// GET /api/sandboxes/{id} on `connections` keep-alive connections for `seconds`: requests/s.
Figure measureGetRate(const ApiClient& api, const std::string& sandboxId, int connections,
                      double seconds);

// A command printing `megabytes` MiB in 100-byte lines, streamed as SSE: MB/s of output.
Figure measureSse(ApiClient& api, const std::string& sandboxId, int megabytes);

// The shell command measureSse runs, so the reference can pipe the same bytes locally.
std::string sseCommand(int megabytes);

} // namespace lizard::bench
