// The warm pool figures: create and restore claimed from a pool beside their cold
// counterparts, the API's p99 while a pool refills beside its quiet p99, and the memory a warm
// copy holds.
#include "benchcalls.h"
#include "benchmarks.h"
#include "stats.h"

#include <chrono>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

namespace lizard::bench {

using nlohmann::json;

namespace {

json getJson(ApiClient& api, const std::string& path)
{
    const HttpResponse r = api.request("GET", path);
    return r.ok() ? json::parse(r.body, nullptr, false) : json();
}

// Polls `path` until its integer `field` is `want` (or at least it, with `atLeast`).
bool waitField(ApiClient& api, const std::string& path, const std::string& field, int want,
               bool atLeast, int timeoutMs = 60000)
{
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeoutMs);
    while (Clock::now() < deadline) {
        const json j = getJson(api, path);
        if (j.is_object() && j.contains(field) && j[field].is_number_integer()) {
            const int v = j[field].get<int>();
            if (atLeast ? v >= want : v == want)
                return true;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

std::vector<pid_t> allPids()
{
    std::vector<pid_t> out;
    if (DIR* d = ::opendir("/proc")) {
        while (dirent* e = ::readdir(d))
            if (const int pid = std::atoi(e->d_name); pid > 0)
                out.push_back(pid);
        ::closedir(d);
    }
    return out;
}

pid_t parentOf(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto close = stat.rfind(')');
    if (close == std::string::npos)
        return 0;
    std::istringstream rest(stat.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    return ppid;
}

std::vector<std::string> argvOf(pid_t pid)
{
    std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline");
    std::vector<std::string> out;
    for (std::string arg; std::getline(in, arg, '\0');)
        out.push_back(arg);
    return out;
}

// The sandbox's slirp4netns runs beside its PID 1, not below it: its last arguments are that
// pid and the tap device.
bool isNetworkHelperOf(pid_t pid, pid_t root)
{
    const auto argv = argvOf(pid);
    return argv.size() >= 3 && argv[0].size() >= 11 &&
           argv[0].compare(argv[0].size() - 11, 11, "slirp4netns") == 0 &&
           argv[argv.size() - 2] == std::to_string(root);
}

// PSS in KiB of `root`, every process below it and its network helper; `kernel` says whether
// one of them is a Jupyter kernel (an interpreter copy's pre-started one).
long treePssKib(pid_t root, bool& kernel)
{
    std::set<pid_t> tree{root};
    bool grew = true;
    const auto pids = allPids();
    for (pid_t p : pids)
        if (isNetworkHelperOf(p, root))
            tree.insert(p);
    while (grew) {
        grew = false;
        for (pid_t p : pids)
            if (!tree.count(p) && tree.count(parentOf(p)))
                grew = tree.insert(p).second || grew;
    }
    long kib = 0;
    kernel = false;
    for (pid_t p : tree) {
        for (const std::string& a : argvOf(p))
            kernel = kernel || a.find("ipykernel") != std::string::npos;
        std::ifstream in("/proc/" + std::to_string(p) + "/smaps_rollup");
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("Pss:", 0) == 0) {
                kib += std::atol(line.c_str() + 4);
                break;
            }
        }
    }
    return kib;
}

// `runs` times: waits (untimed) until `readyPath` says `field` >= 1, then times POST
// /api/sandboxes with `body`, which must claim a warm copy, and deletes what it made. "" or
// what went wrong.
std::string timeClaims(ApiClient& api, int runs, const std::string& readyPath,
                       const std::string& field, const json& body, std::vector<double>& samples)
{
    for (int i = 0; i < runs; ++i) {
        if (!waitField(api, readyPath, field, 1, true))
            return "the pool (" + readyPath + ") did not refill within 60 s";
        const auto t = Clock::now();
        const HttpResponse r = api.request("POST", "/api/sandboxes", body.dump());
        samples.push_back(msSince(t));
        const json info = json::parse(r.body, nullptr, false);
        if (!r.ok() || !info.is_object() || !info.value("fromPool", false))
            return "a create with a ready pool did not claim a copy: " + r.describe();
        api.request("DELETE", "/api/sandboxes/" + info.value("sandboxId", ""));
    }
    return {};
}

} // namespace

int templatePoolSize(ApiClient& api, const std::string& name)
{
    const json j = getJson(api, "/api/templates/" + name);
    return j.is_object() ? j.value("requestedPoolSize", -1) : -1;
}

bool setTemplatePool(ApiClient& api, const std::string& name, int size)
{
    const HttpResponse r =
        api.request("PATCH", "/api/templates/" + name, json{{"poolSize", size}}.dump());
    const json answer = json::parse(r.body, nullptr, false);
    // A server that keeps fewer (--pool-max) answers its effective size: no use waiting.
    if (!r.ok() || !answer.is_object() || answer.value("poolSize", -1) != size)
        return false;
    return waitField(api, "/api/templates/" + name, "readyCount", size, false);
}

Figure measurePooledCreate(ApiClient& api, const std::string& projectId, int runs,
                           std::optional<Reference> cold)
{
    Figure f = figure("create from a warm pool", runs, 5);
    f.reference = std::move(cold);
    std::vector<double> samples;
    const std::string error = timeClaims(
        api, runs, "/api/templates/base", "readyCount",
        {{"projectId", projectId}, {"template", "base"}, {"timeoutMs", 600000}}, samples);
    if (error.empty()) {
        finish(f, samples);
        char note[96];
        std::snprintf(note, sizeof note, "p90 %.2f ms, max %.2f ms", quantile(samples, 0.9),
                      quantile(samples, 1));
        f.note = note;
    }
    f.error = error;
    return f;
}

Figure measurePooledRestore(ApiClient& api, const std::string& projectId, int runs,
                            std::optional<Reference> cold)
{
    Figure f = figure("restore (100 MB) from pool", runs, 10);
    f.reference = std::move(cold);
    Leftovers left(api);
    std::string error;
    const std::string id = start(
        api, {{"projectId", projectId}, {"template", "base"}, {"timeoutMs", 900000}}, left, error);
    std::string snapshotId;
    if (!id.empty() && run(api, id, "head -c 104857600 /dev/urandom > /root/data.bin", error)) {
        const HttpResponse a = api.request("POST", "/api/sandboxes/" + id + "/snapshot",
                                           R"({"name":"bench pool","poolSize":1})");
        const json body = json::parse(a.body, nullptr, false);
        if (a.ok() && body.is_object()) {
            snapshotId = body.value("id", "");
            left.snapshot(snapshotId);
        } else {
            error = "snapshot: " + a.describe();
        }
    }
    std::vector<double> samples;
    if (error.empty())
        error = timeClaims(api, runs, "/api/sandbox-snapshots/" + snapshotId, "warmCount",
                           {{"snapshotId", snapshotId}, {"timeoutMs", 600000}}, samples);
    if (error.empty())
        finish(f, samples);
    f.error = error;
    return f;
}

Figure measureRefillLatency(ApiClient& api, const std::string& sandboxId, int copies)
{
    Figure f{.name = "GET p99, pool refilling " + std::to_string(copies),
             .statistic = "p99",
             .unit = "ms",
             .target = 10};
    const std::string path = "/api/sandboxes/" + sandboxId;
    auto sample = [&](std::vector<double>& out) {
        const auto t = Clock::now();
        const bool ok = api.request("GET", path).ok();
        out.push_back(msSince(t));
        return ok;
    };
    std::vector<double> quiet, refilling;
    for (int i = 0; i < 500; ++i)
        if (!sample(quiet)) {
            f.error = "GET " + path + " failed";
            return f;
        }
    const int before = templatePoolSize(api, "base");
    if (before < 0 || !setTemplatePool(api, "base", 0)) {
        f.error = "cannot empty the base pool (PATCH /api/templates/base)";
        return f;
    }
    api.request("PATCH", "/api/templates/base", json{{"poolSize", copies}}.dump());
    const auto deadline = Clock::now() + std::chrono::seconds(60);
    int round = 0;
    while (Clock::now() < deadline) {
        sample(refilling);
        if (++round % 50 == 0 &&
            getJson(api, "/api/templates/base").value("readyCount", 0) >= copies)
            break;
    }
    setTemplatePool(api, "base", before);
    f.value = quantile(refilling, 0.99);
    f.reference = Reference{"the same GET while no pool refills (p99)", quantile(quiet, 0.99)};
    char note[96];
    std::snprintf(note, sizeof note, "%zu GETs during the refill, median %.2f ms", refilling.size(),
                  median(refilling));
    f.note = note;
    return f;
}

std::vector<Figure> measureWarmCopyMemory(ApiClient& api, const std::string& dataDir)
{
    Figure plain{.name = "warm copy of base, PSS",
                 .statistic = "mean of idle copies",
                 .unit = "MiB",
                 .hasTarget = false};
    Figure kernel = plain;
    kernel.name = "warm interpreter copy, PSS"; // its kernel pre-started
    if (!waitField(api, "/api/templates/base", "readyCount", 1, true))
        plain.error = "the base pool did not refill within 60 s";
    const bool interpreterPool =
        getJson(api, "/api/templates/interpreter").value("poolSize", 0) > 0;
    if (interpreterPool && !waitField(api, "/api/templates/interpreter", "readyCount", 1, true))
        kernel.error = "the interpreter pool did not fill within 60 s";
    std::set<std::string> listed;
    const json list = getJson(api, "/api/sandboxes");
    for (const json& s : list.is_array() ? list : json::array())
        listed.insert(s.value("sandboxId", ""));
    long total[2] = {0, 0};
    int copies[2] = {0, 0};
    if (DIR* d = ::opendir((dataDir + "/sandboxes").c_str())) {
        while (dirent* e = ::readdir(d)) {
            const std::string id = e->d_name;
            if (id.rfind("sb_", 0) != 0 || listed.count(id))
                continue;
            pid_t pid = 0;
            std::ifstream(dataDir + "/sandboxes/" + id + "/init.pid") >> pid;
            bool hasKernel = false;
            const long kib = pid > 0 ? treePssKib(pid, hasKernel) : 0;
            if (kib > 0) { // 0: a sandbox that ended and whose directory is not gone yet
                total[hasKernel] += kib;
                ++copies[hasKernel];
            }
        }
        ::closedir(d);
    }
    for (int k : {0, 1}) {
        Figure& f = k ? kernel : plain;
        if (!f.error.empty())
            continue;
        if (copies[k] == 0) {
            f.error = std::string("no warm copy ") + (k ? "with" : "without") + " a kernel under " +
                      dataDir + "/sandboxes";
            continue;
        }
        f.value = double(total[k]) / copies[k] / 1024.0;
        f.note = std::to_string(copies[k]) + (k ? " copies of interpreter: the agent, slirp4netns, "
                                                  "the kernel (numpy, pandas, matplotlib) and its "
                                                  "watcher"
                                                : " copies: the agent (PID 1) and its slirp4netns");
    }
    if (!interpreterPool)
        return {plain}; // the server keeps no interpreter copies: nothing to measure
    return {plain, kernel};
}

} // namespace lizard::bench
