#include "common/options.h"

#include <boost/program_options.hpp>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <pwd.h>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace lizard {

namespace po = boost::program_options;

namespace {

Error usageError(const std::string& message)
{
    return Error{ErrorKind::InvalidArgument, "USAGE", message};
}

// Every option with a value, with the range it accepts and what to say when it is outside.
struct IntOption
{
    const char* name;
    int min, max;
    const char* refusal;
};

constexpr IntOption kIntOptions[] = {
    {"port", 0, 65535, "--port needs a number from 0 to 65535"},
    {"proxy-port", 0, 65535, "--proxy-port needs a number from 0 to 65535"},
    {"orphan-grace", 0, 604800, "--orphan-grace needs a number of seconds from 0 to 604800"},
    {"websocket-idle", 2, 3600, "--websocket-idle needs a number of seconds from 2 to 3600"},
    {"idle-minute-ms", 50, 60000,
     "--idle-minute-ms needs a number of milliseconds from 50 to 60000"},
    {"activity-max-kib", 16, 16 * 1024 * 1024,
     "--activity-max-kib needs a number from 16 to 16777216"},
    {"max-running", 1, 100000, "--max-running needs a number from 1 to 100000"},
    {"pool-max", 0, 64, "--pool-max needs a number from 0 to 64"},
    {"pool-min-free-mb", 0, 1 << 24, "--pool-min-free-mb needs a number from 0 to 16777216"},
    {"pool-base", 0, 16, "--pool-base needs a number from 0 to 16"},
    {"pool-interpreter", 0, 16, "--pool-interpreter needs a number from 0 to 16"},
    {"pool-desktop", 0, 16, "--pool-desktop needs a number from 0 to 16"},
    {"schedule-min-interval", 1, 60,
     "--schedule-min-interval needs a number of seconds from 1 to 60"},
    {"metrics-interval-ms", 250, 60000, "--metrics-interval-ms needs a number from 250 to 60000"},
    {"template-cache-mb", 0, 1 << 24, "--template-cache-mb needs a number from 0 to 16777216"},
};

po::options_description describeOptions()
{
    po::options_description d;
    d.add_options()("help,h", "")("version", "")("no-activity", "")("data-dir",
                                                                    po::value<std::string>());
    // Values are read as text so that a bad one gets our message, not the library's.
    for (const IntOption& o : kIntOptions)
        d.add_options()(o.name, po::value<std::string>());
    return d;
}

// The value of `option` when it is a whole number in its range.
std::optional<int> intValue(const po::variables_map& vm, const IntOption& option)
{
    const std::string& text = vm[option.name].as<std::string>();
    size_t used = 0;
    try {
        const long v = std::stol(text, &used, 10);
        if (used == text.size() && v >= option.min && v <= option.max)
            return int(v);
    } catch (const std::exception&) {
    }
    return std::nullopt;
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
           "                    [--pool-max N] [--pool-min-free-mb N] [--pool-TEMPLATE N]\n"
           "                    [--websocket-idle S] [--idle-minute-ms MS]\n"
           "                    [--schedule-min-interval S] [--metrics-interval-ms N]\n"
           "                    [--template-cache-mb N]\n"
           "       lizard-local doctor   (what this computer gives sandboxes, and the fixes)\n"
           "  (--option=VALUE works as well as --option VALUE)\n"
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
           "  --pool-max N     warm copies (sandboxes started ahead of creates) kept in all\n"
           "                   (default from the host's memory: 16 with 8 GiB or more, 4 with\n"
           "                   3 GiB or more, else 0; 0 = no warm pools)\n"
           "  --pool-min-free-mb N\n"
           "                   warm copies are given back while less memory is available\n"
           "                   (default 1024)\n"
           "  --pool-base N, --pool-interpreter N, --pool-desktop N\n"
           "                   warm copies of each template until the API changes it (defaults\n"
           "                   2, 1 and 0; 0 where --pool-max is under 4)\n"
           "  --websocket-idle S\n"
           "                   a terminal's client that answers nothing (not even the pings,\n"
           "                   sent every S/2 seconds) for S seconds is dropped (default 60)\n"
           "  --idle-minute-ms MS\n"
           "                   how long one minute of a sandbox's idlePauseMinutes lasts, in ms\n"
           "                   (default 60000; tests make idle pauses quick with less)\n"
           "  --schedule-min-interval S\n"
           "                   the shortest \"every\" a schedule may have (default 10 seconds)\n"
           "  --metrics-interval-ms N\n"
           "                   every running sandbox's CPU, memory, disk and network are sampled\n"
           "                   every N ms (default 2000, 250..60000); kept 24 h at decreasing\n"
           "                   resolution\n"
           "  --template-cache-mb N\n"
           "                   the layers template builds keep for the next build, beyond the\n"
           "                   ones a version stands on (default 20480); the least recently\n"
           "                   used go first\n"
           "  --version        print the version\n"
           "  -h, --help       print this help\n";
}

Result<Options> parseOptions(const std::vector<std::string>& args)
{
    po::variables_map vm;
    try {
        // No abbreviations: `--port` must not be guessed from `--p`, nor `--proxy` be taken
        // for `--proxy-port`, on a server's command line.
        const int style =
            po::command_line_style::unix_style & ~po::command_line_style::allow_guessing;
        // No positional arguments: a stray word is refused, never ignored.
        const po::positional_options_description none;
        po::store(po::command_line_parser(args)
                      .options(describeOptions())
                      .positional(none)
                      .style(style)
                      .run(),
                  vm);
    } catch (const po::unknown_option& e) {
        return usageError("unknown argument: " + e.get_option_name());
    } catch (const po::multiple_occurrences& e) {
        return usageError(e.get_option_name() + " was given more than once");
    } catch (const po::too_many_positional_options_error&) {
        return usageError("unknown argument: lizard-local takes options only");
    } catch (const po::invalid_command_line_syntax& e) {
        // An option without its value: say what it needs.
        for (const IntOption& o : kIntOptions)
            if (e.get_option_name() == std::string("--") + o.name)
                return usageError(o.refusal);
        if (e.get_option_name() == "--data-dir")
            return usageError("--data-dir needs a directory");
        return usageError(e.what());
    } catch (const po::error& e) {
        return usageError(e.what());
    }

    Options o;
    o.help = vm.count("help") > 0;
    o.version = vm.count("version") > 0;
    o.activity = vm.count("no-activity") == 0;
    std::optional<int> proxyPort;
    for (const IntOption& option : kIntOptions) {
        if (!vm.count(option.name))
            continue;
        const std::optional<int> v = intValue(vm, option);
        if (!v)
            return usageError(option.refusal);
        const std::string name = option.name;
        if (name == "port")
            o.port = *v;
        else if (name == "proxy-port")
            proxyPort = *v;
        else if (name == "orphan-grace")
            o.orphanGraceS = *v;
        else if (name == "websocket-idle")
            o.websocketIdleS = *v;
        else if (name == "idle-minute-ms")
            o.idleMinuteMs = *v;
        else if (name == "activity-max-kib")
            o.activityMaxBytes = uint64_t(*v) * 1024;
        else if (name == "max-running")
            o.maxRunning = *v;
        else if (name == "pool-max")
            o.poolMax = *v;
        else if (name == "pool-min-free-mb")
            o.poolMinFreeMb = *v;
        else if (name == "pool-base")
            o.poolBase = *v;
        else if (name == "pool-interpreter")
            o.poolInterpreter = *v;
        else if (name == "pool-desktop")
            o.poolDesktop = *v;
        else if (name == "schedule-min-interval")
            o.scheduleMinIntervalS = *v;
        else if (name == "metrics-interval-ms")
            o.metricsIntervalMs = *v;
        else if (name == "template-cache-mb")
            o.templateCacheMb = *v;
    }
    if (vm.count("data-dir")) {
        const std::string dir = vm["data-dir"].as<std::string>();
        if (dir.empty())
            return usageError("--data-dir needs a directory");
        std::error_code ec;
        o.dataDir = std::filesystem::absolute(dir, ec).lexically_normal().string();
        if (ec)
            return usageError("--data-dir: " + ec.message());
    }

    o.proxyPortGiven = proxyPort.has_value();
    o.proxyPort = proxyPort.value_or(o.port == 0 || o.port == 65535 ? 0 : o.port + 1);
    if (o.proxyPort != 0 && o.proxyPort == o.port)
        return usageError("--proxy-port must differ from --port");
    if (o.dataDir.empty())
        o.dataDir = defaultDataDir();
    while (o.dataDir.size() > 1 && o.dataDir.back() == '/')
        o.dataDir.pop_back();
    return o;
}

} // namespace lizard
