// The lifecycle figures: pause and resume of a sandbox with a running Python
// kernel, snapshot of 100 MB of written files, restore from it to running, fork x10.
#include "benchcalls.h"
#include "benchmarks.h"
#include "stats.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <thread>
#include <vector>

namespace lizard::bench {

using nlohmann::json;

std::pair<Figure, Figure> measurePauseResume(ApiClient& api, const std::string& projectId, int runs)
{
    Figure pause = figure("pause (Python kernel)", runs, 100);
    Figure resume = figure("resume (Python kernel)", runs, 100);
    Leftovers left(api);
    std::string error;
    const std::string id =
        start(api, {{"projectId", projectId}, {"template", "interpreter"}, {"timeoutMs", 900000}},
              left, error);
    // A real Jupyter kernel that imported numpy and pandas holds a few hundred MB of memory.
    if (!id.empty() &&
        run(api, id,
            "cd /tmp && nohup python3 -m ipykernel_launcher -f /tmp/bench-kernel.json "
            ">/tmp/kernel.log 2>&1 &"
            " for i in $(seq 100); do test -s /tmp/bench-kernel.json && break; sleep 0.1; done;"
            " python3 -c 'import numpy, pandas' && test -s /tmp/bench-kernel.json",
            error)) {
        std::vector<double> p, r;
        for (int i = 0; i < runs && error.empty(); ++i) {
            auto t = Clock::now();
            const HttpResponse a = api.request("POST", "/api/sandboxes/" + id + "/pause");
            p.push_back(msSince(t));
            t = Clock::now();
            const HttpResponse b = api.request("POST", "/api/sandboxes/" + id + "/resume");
            r.push_back(msSince(t));
            if (!a.ok() || !b.ok())
                error = "pause/resume: " + (a.ok() ? b : a).describe();
        }
        finish(pause, p);
        finish(resume, r);
    }
    pause.error = resume.error = error;
    return {pause, resume};
}

std::pair<Figure, Figure> measureSnapshotRestore(ApiClient& api, const std::string& projectId,
                                                 int runs)
{
    Figure snap = figure("snapshot (100 MB written)", runs, 2000);
    Figure restore = figure("restore (100 MB) -> running", runs, 50);
    Leftovers left(api);
    std::string error;
    const std::string id = start(
        api, {{"projectId", projectId}, {"template", "base"}, {"timeoutMs", 900000}}, left, error);
    if (!id.empty() && run(api, id, "head -c 104857600 /dev/urandom > /root/data.bin", error)) {
        std::vector<double> s, r;
        for (int i = 0; i < runs && error.empty(); ++i) {
            const auto t = Clock::now();
            const HttpResponse a =
                api.request("POST", "/api/sandboxes/" + id + "/snapshot", R"({"name":"bench"})");
            s.push_back(msSince(t));
            const json body = json::parse(a.body, nullptr, false);
            if (!a.ok() || !body.is_object() || body.value("status", "") != "ready") {
                error = "snapshot: " + a.describe();
                break;
            }
            const std::string snapshotId = body["id"].get<std::string>();
            left.snapshot(snapshotId);
            const auto t2 = Clock::now();
            const std::string copy =
                start(api, {{"snapshotId", snapshotId}, {"timeoutMs", 600000}}, left, error);
            r.push_back(msSince(t2));
            if (!copy.empty())
                api.request("DELETE", "/api/sandboxes/" + copy);
        }
        finish(snap, s);
        finish(restore, r);
    }
    snap.error = restore.error = error;
    return {snap, restore};
}

Figure measureFork(ApiClient& api, const std::string& projectId, int copies, int runs)
{
    Figure f = figure("fork x" + std::to_string(copies) + " -> all running", runs, 200);
    Leftovers left(api);
    std::string error;
    const std::string id = start(
        api, {{"projectId", projectId}, {"template", "base"}, {"timeoutMs", 900000}}, left, error);
    if (!id.empty() &&
        run(api, id, "mkdir -p /root/app && seq 100000 > /root/app/data.txt", error)) {
        std::vector<double> samples;
        for (int i = 0; i < runs && error.empty(); ++i) {
            const auto t = Clock::now();
            const HttpResponse r =
                api.request("POST", "/api/sandboxes/" + id + "/fork",
                            json{{"count", copies}, {"timeoutMs", 600000}}.dump());
            samples.push_back(msSince(t));
            const json entries = json::parse(r.body, nullptr, false);
            int made = 0;
            if (entries.is_array()) {
                for (const json& e : entries) {
                    if (e.contains("sandbox")) {
                        ++made;
                        api.request("DELETE",
                                    "/api/sandboxes/" + e["sandbox"].value("sandboxId", ""));
                    }
                }
            }
            if (!r.ok() || made != copies)
                error = "fork: " + std::to_string(made) + " of " + std::to_string(copies) +
                        " copies: " + r.describe().substr(0, 300);
        }
        finish(f, samples);
    }
    f.error = error;
    return f;
}

} // namespace lizard::bench
