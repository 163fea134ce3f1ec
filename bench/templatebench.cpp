// A template built from a recipe: the interpreter with 5 Python packages (wheels made in the
// build, so no package index is needed) and a last step, built cold, then built again after
// changing only the last step (the first steps come from the layer cache).
#include "benchmarks.h"
#include "stats.h"

#include <chrono>
#include <nlohmann/json.hpp>

namespace lizard::bench {

using nlohmann::json;

namespace {

// Five wheels of one module each, written where the pip step finds them.
const char* kMakeWheels = R"(import zipfile, os
os.makedirs('/tmp/wheels', exist_ok=True)
for i in range(5):
    n = f'benchpkg{i}'
    with zipfile.ZipFile(f'/tmp/wheels/{n}-1.0-py3-none-any.whl', 'w') as z:
        z.writestr(f'{n}/__init__.py', 'VALUE = 1\n' * 2000)
        z.writestr(f'{n}-1.0.dist-info/METADATA', f'Metadata-Version: 2.1\nName: {n}\nVersion: 1.0\n')
        z.writestr(f'{n}-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n')
        z.writestr(f'{n}-1.0.dist-info/RECORD', '')
)";

std::string base64(const std::string& in)
{
    static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const unsigned v =
            (unsigned char)in[i] << 16 | (unsigned char)in[i + 1] << 8 | (unsigned char)in[i + 2];
        out += {t[v >> 18], t[v >> 12 & 63], t[v >> 6 & 63], t[v & 63]};
    }
    if (i + 1 == in.size()) {
        const unsigned v = (unsigned char)in[i] << 16;
        out += {t[v >> 18], t[v >> 12 & 63], '=', '='};
    } else if (i + 2 == in.size()) {
        const unsigned v = (unsigned char)in[i] << 16 | (unsigned char)in[i + 1] << 8;
        out += {t[v >> 18], t[v >> 12 & 63], t[v >> 6 & 63], '='};
    }
    return out;
}

// `nonce` makes the first step's key new (a cold build); `last` is the last step's text.
std::string recipe(const std::string& nonce, const std::string& last)
{
    std::string r = "from: interpreter\n"
                    "steps:\n"
                    "  - run: echo " +
                    nonce +
                    " > /opt/bench-nonce\n"
                    "  - files:\n"
                    "      mkwheels.py: /tmp/mkwheels.py\n"
                    "  - run: python3 /tmp/mkwheels.py\n"
                    "  - pip:\n";
    for (int i = 0; i < 5; ++i)
        r += "      - /tmp/wheels/benchpkg" + std::to_string(i) + "-1.0-py3-none-any.whl\n";
    return r + "  - run: echo " + last + " > /opt/last\n";
}

// Starts a build and reads its log to the end: the build's end event (or {"error"}).
json buildAndWait(ApiClient& api, const std::string& name, const std::string& text, double* ms)
{
    const json body{
        {"name", name}, {"recipe", text}, {"files", {{"mkwheels.py", base64(kMakeWheels)}}}};
    const auto start = Clock::now();
    const HttpResponse r = api.request("POST", "/api/templates", body.dump());
    const json b = json::parse(r.body, nullptr, false);
    if (r.status != 202 || !b.is_object())
        return json{{"error", "HTTP " + std::to_string(r.status) + " " + r.body.substr(0, 300)}};
    const HttpResponse log = api.request("GET", b.value("logUrl", std::string()));
    *ms = msSince(start);
    const std::string marker = "event: end\ndata: ";
    const std::size_t at = log.body.rfind(marker);
    if (at == std::string::npos)
        return json{{"error", "the log ended without the build's end"}};
    const std::size_t from = at + marker.size();
    const json end =
        json::parse(log.body.substr(from, log.body.find('\n', from) - from), nullptr, false);
    return end.is_object() ? end : json{{"error", "an unreadable end event"}};
}

} // namespace

std::pair<Figure, Figure> measureTemplateBuild(ApiClient& api)
{
    Figure cold{
        .name = "template build, cold", .statistic = "one build", .unit = "ms", .hasTarget = false};
    Figure warm{.name = "template rebuild, last step",
                .statistic = "one build",
                .unit = "ms",
                .hasTarget = false};
    const std::string name = "lizard-bench-recipe";
    const std::string nonce =
        std::to_string(std::chrono::system_clock::now().time_since_epoch().count());
    double coldMs = 0;
    double warmMs = 0;
    const json a = buildAndWait(api, name, recipe(nonce, "one"), &coldMs);
    if (a.value("status", "") != "succeeded") {
        cold.error = a.value("error", a.dump());
        warm.error = "no cold build";
        api.request("DELETE", "/api/templates/" + name);
        return {cold, warm};
    }
    cold.value = coldMs;
    cold.note = "interpreter + 5 pip packages, " + std::to_string(a.value("steps", 0)) + " steps";
    const json b = buildAndWait(api, name, recipe(nonce, "two"), &warmMs);
    if (b.value("status", "") != "succeeded") {
        warm.error = b.value("error", b.dump());
    } else {
        warm.value = warmMs;
        warm.note = std::to_string(b.value("cachedSteps", 0)) + " of " +
                    std::to_string(b.value("steps", 0)) + " steps from the cache";
        warm.reference = Reference{"the cold build", coldMs};
    }
    api.request("DELETE", "/api/templates/" + name);
    return {cold, warm};
}

} // namespace lizard::bench
