// A download through the port proxy, beside the same download made inside the sandbox
// (no proxy) as the reference.
#include "benchmarks.h"
#include "stats.h"

#include <cstdio>
#include <curl/curl.h>
#include <nlohmann/json.hpp>

namespace lizard::bench {

namespace {

constexpr int kPort = 8765;
const char* const kFile = "/tmp/lizard-proxy-bench.bin";

// Runs a shell command in the sandbox and returns its stdout, or sets error.
std::string execText(ApiClient& api, const std::string& sandboxId, const std::string& cmd,
                     std::string& error)
{
    const HttpResponse r = api.request("POST", "/api/sandboxes/" + sandboxId + "/exec",
                                       nlohmann::json{{"cmd", cmd}}.dump());
    if (!r.ok()) {
        error = "exec: " + r.describe();
        return {};
    }
    const auto j = nlohmann::json::parse(r.body, nullptr, false);
    if (!j.is_object() || j.value("exitCode", -1) != 0) {
        error = "exec `" + cmd.substr(0, 60) + "…` failed: " + r.body.substr(0, 300);
        return {};
    }
    return j.value("stdout", std::string());
}

size_t countBytes(char*, size_t size, size_t n, void* userdata)
{
    *static_cast<std::uint64_t*>(userdata) += size * n;
    return size * n;
}

} // namespace

Figure measureProxy(ApiClient& api, const std::string& sandboxId, int megabytes)
{
    Figure f{.name = "proxied download",
             .statistic = std::to_string(megabytes) + " MiB, http.server",
             .unit = "MB/s",
             .target = 200,
             .higherIsBetter = true};
    const std::uint64_t bytes = std::uint64_t(megabytes) << 20;
    const std::string url =
        "http://127.0.0.1:" + std::to_string(kPort) + "/" + std::string(kFile).substr(5);
    execText(api, sandboxId,
             "head -c " + std::to_string(bytes) + " /dev/zero > " + kFile +
                 " && cd /tmp && (setsid python3 -m http.server " + std::to_string(kPort) +
                 " --bind 127.0.0.1 >/dev/null 2>&1 &) && for i in $(seq 100); do "
                 "curl -s -o /dev/null " +
                 url + " && break; sleep 0.05; done",
             f.error);
    if (!f.error.empty())
        return f;
    // The reference: the same bytes fetched inside the sandbox, straight from the server.
    const std::string inside =
        execText(api, sandboxId,
                 "curl -s -o /dev/null -w '%{speed_download} %{size_download}' " + url, f.error);
    if (!f.error.empty())
        return f;
    double insideBps = 0;
    unsigned long long insideBytes = 0;
    if (std::sscanf(inside.c_str(), "%lf %llu", &insideBps, &insideBytes) == 2 &&
        insideBytes == bytes)
        f.reference = Reference{"the same download inside the sandbox", insideBps / 1e6};

    const std::string exposePath =
        "/api/sandboxes/" + sandboxId + "/expose/" + std::to_string(kPort);
    const HttpResponse exposed = api.request("POST", exposePath);
    const auto ej = nlohmann::json::parse(exposed.body, nullptr, false);
    if (!exposed.ok() || !ej.is_object() || !ej.contains("hostname") ||
        !ej.contains("accessToken")) {
        f.error = "expose: " + exposed.describe();
        return f;
    }
    CURL* curl = curl_easy_init();
    curl_slist* headers = curl_slist_append(
        nullptr, ("X-Lizard-Access-Token: " + ej["accessToken"].get<std::string>()).c_str());
    const std::string proxied =
        "http://" + ej["hostname"].get<std::string>() + std::string(kFile).substr(4);
    std::uint64_t received = 0;
    curl_easy_setopt(curl, CURLOPT_URL, proxied.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, countBytes);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &received);
    curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
    const auto start = Clock::now();
    const CURLcode rc = curl_easy_perform(curl);
    const double seconds = msSince(start) / 1000.0;
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    api.request("DELETE", exposePath);
    execText(api, sandboxId, std::string("rm -f ") + kFile, f.error);
    if (rc != CURLE_OK || status != 200 || received != bytes) {
        f.error = "GET " + proxied + ": " +
                  (rc != CURLE_OK ? curl_easy_strerror(rc) : "HTTP " + std::to_string(status)) +
                  ", " + std::to_string(received) + " of " + std::to_string(bytes) + " bytes";
        return f;
    }
    f.value = double(bytes) / 1e6 / seconds;
    char note[64];
    std::snprintf(note, sizeof note, "%.2f s", seconds);
    f.note = note;
    return f;
}

} // namespace lizard::bench
