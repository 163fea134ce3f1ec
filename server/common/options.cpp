#include "common/options.h"

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <pwd.h>
#include <unistd.h>

namespace lizard {

namespace {

Error usageError(const std::string& message)
{
    return Error{2, "USAGE", message};
}

bool parseInt(const std::string& text, int min, int max, int& out)
{
    int v = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || ptr != text.data() + text.size() || v < min || v > max)
        return false;
    out = v;
    return true;
}

} // namespace

std::string defaultDataDir()
{
    const char* xdg = std::getenv("XDG_DATA_HOME");
    if (xdg != nullptr && xdg[0] == '/')
        return std::string(xdg) + "/lizard-local";
    const char* home = std::getenv("HOME");
    std::string h = home != nullptr && home[0] == '/' ? home : "";
    if (h.empty()) {
        if (const passwd* pw = getpwuid(getuid()); pw != nullptr && pw->pw_dir != nullptr)
            h = pw->pw_dir;
    }
    return h + "/.local/share/lizard-local";
}

std::string usageText()
{
    return "usage: lizard-local [--port N] [--proxy-port N] [--data-dir DIR] [--max-running N]\n"
           "                    [--orphan-grace S] [--no-activity] [--activity-max-kib N]\n"
           "  --port N         listen on 127.0.0.1:N (default 7411; 0 = any free port)\n"
           "  --proxy-port N   exposed sandbox ports on 127.x.y.z:N (default: --port + 1, or\n"
           "                   any free port when that is taken or --port is 0; 0 = any free "
           "port)\n"
           "  --data-dir DIR   state directory (default $XDG_DATA_HOME/lizard-local)\n"
           "  --max-running N  sandboxes running at once (default 32)\n"
           "  --orphan-grace S when lizard-local is gone, sandboxes end at their deadline, and\n"
           "                   S seconds after it stopped (default 600; 0 = no such end); a "
           "restart\n"
           "                   before that adopts them\n"
           "  --no-activity    record no activity log (GET /api/sandboxes/{id}/activity: 501)\n"
           "  --activity-max-kib N\n"
           "                   bound of each sandbox's activity log in KiB (default 65536,\n"
           "                   at least 16); the oldest entries are dropped first\n"
           "  --version        print the version\n"
           "  -h, --help       print this help\n";
}

Result<Options> parseOptions(const std::vector<std::string>& args)
{
    Options o;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&](std::string& out) -> bool {
            if (i + 1 >= args.size())
                return false;
            out = args[++i];
            return true;
        };
        std::string v;
        if (a == "--help" || a == "-h") {
            o.help = true;
        } else if (a == "--version") {
            o.version = true;
        } else if (a == "--port") {
            if (!value(v) || !parseInt(v, 0, 65535, o.port))
                return usageError("--port needs a number from 0 to 65535");
        } else if (a == "--proxy-port") {
            if (!value(v) || !parseInt(v, 0, 65535, o.proxyPort))
                return usageError("--proxy-port needs a number from 0 to 65535");
        } else if (a == "--data-dir") {
            if (!value(v) || v.empty())
                return usageError("--data-dir needs a directory");
            std::error_code ec;
            o.dataDir = std::filesystem::absolute(v, ec).lexically_normal().string();
            if (ec)
                return usageError("--data-dir: " + ec.message());
        } else if (a == "--orphan-grace") {
            if (!value(v) || !parseInt(v, 0, 604800, o.orphanGraceS))
                return usageError("--orphan-grace needs a number of seconds from 0 to 604800");
        } else if (a == "--no-activity") {
            o.activity = false;
        } else if (a == "--activity-max-kib") {
            int kib = 0;
            if (!value(v) || !parseInt(v, 16, 16 * 1024 * 1024, kib))
                return usageError("--activity-max-kib needs a number from 16 to 16777216");
            o.activityMaxBytes = uint64_t(kib) * 1024;
        } else if (a == "--max-running") {
            if (!value(v) || !parseInt(v, 1, 100000, o.maxRunning))
                return usageError("--max-running needs a number from 1 to 100000");
        } else {
            return usageError("unknown argument: " + a);
        }
    }
    o.proxyPortGiven = o.proxyPort >= 0;
    if (o.proxyPort < 0)
        o.proxyPort = o.port == 0 || o.port == 65535 ? 0 : o.port + 1;
    if (o.proxyPort != 0 && o.proxyPort == o.port)
        return usageError("--proxy-port must differ from --port");
    if (o.dataDir.empty())
        o.dataDir = defaultDataDir();
    while (o.dataDir.size() > 1 && o.dataDir.back() == '/')
        o.dataDir.pop_back();
    return o;
}

} // namespace lizard
