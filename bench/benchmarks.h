#pragma once
// The figures of `make bench`, each measured against a running lizard-local.

#include "apiclient.h"
#include "figure.h"
#include "session.h"

#include <optional>
#include <string>
#include <utility>

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

// lifecyclebench.cpp: pause and resume of an interpreter sandbox running a Jupyter
// kernel: medians of `runs` round trips each.
std::pair<Figure, Figure> measurePauseResume(ApiClient& api, const std::string& projectId,
                                             int runs);
// Snapshot of a sandbox with 100 MB written, and restore from it until running.
std::pair<Figure, Figure> measureSnapshotRestore(ApiClient& api, const std::string& projectId,
                                                 int runs);
// POST fork {count: copies} until the answer (every copy running).
Figure measureFork(ApiClient& api, const std::string& projectId, int copies, int runs);

// proxybench.cpp: `megabytes` MiB served by python3 -m http.server in the sandbox,
// fetched through the port proxy; the reference is the same download inside the sandbox.
Figure measureProxy(ApiClient& api, const std::string& sandboxId, int megabytes);

// restartbench.cpp: a lizard-local of its own (`localBin`) with `sandboxes` running, stopped
// and started again `runs` times: the median from SIGTERM until every sandbox is listed
// running again (adopted by the new process).
Figure measureRestart(const std::string& localBin, int sandboxes, int runs);

// activitybench.cpp: two lizard-local of its own (`localBin`), with the activity log and with
// --no-activity, measured in turns: what recording adds to the exec round trip of `true`
// (`execRuns` each) and takes from SSE throughput (`sseRuns` × `sseMegabytes` each), in %.
std::pair<Figure, Figure> measureActivityCost(const std::string& localBin, int execRuns,
                                              int sseMegabytes, int sseRuns);

// metricsbench.cpp: a lizard-local of its own (`localBin`) with `sandboxes` idle ones: the
// metrics sampler's CPU over `seconds` in % of a core, and GET .../metrics?range=1h's median.
std::pair<Figure, Figure> measureMetricsCost(const std::string& localBin, int sandboxes,
                                             double seconds, int latencyRuns);

// changesbench.cpp: GET .../changes of a sandbox with `files` new files, median of `runs`; the
// reference is find's walk of the same files inside the sandbox.
Figure measureChanges(ApiClient& api, const std::string& sandboxId, int files, int runs);
// A recipe template built cold, then again after changing its last step (templatebench.cpp).
std::pair<Figure, Figure> measureTemplateBuild(ApiClient& api);

// poolbench.cpp: the warm pools. The base template's pool size (requestedPoolSize; -1 where the
// server has no pools), and setting it (waiting until it holds exactly that many).
int templatePoolSize(ApiClient& api, const std::string& name);
bool setTemplatePool(ApiClient& api, const std::string& name, int size);
// Create of base claimed from its pool (waiting for a ready copy before each, untimed).
Figure measurePooledCreate(ApiClient& api, const std::string& projectId, int runs,
                           std::optional<Reference> cold);
// Restore of a 100 MB snapshot with poolSize 1, each claiming its warm copy.
Figure measurePooledRestore(ApiClient& api, const std::string& projectId, int runs,
                            std::optional<Reference> cold);
// GET p99 while the base pool refills `copies` copies, beside the quiet p99.
Figure measureRefillLatency(ApiClient& api, const std::string& sandboxId, int copies);
// PSS of the idle warm copies (their processes), found under `dataDir`/sandboxes: those without
// and those with a pre-started kernel (the interpreter template's).
std::vector<Figure> measureWarmCopyMemory(ApiClient& api, const std::string& dataDir);

// The shell command measureSse runs, so the reference can pipe the same bytes locally.
std::string sseCommand(int megabytes);

} // namespace lizard::bench
