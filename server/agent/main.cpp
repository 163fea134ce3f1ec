// lizard-agent: started by lizard-local as `lizard-agent init|template|remove|copy|usage` with
// a JSON configuration on stdin (never on the command line: it holds the sandbox's envs).
// `init` ends up as PID 1 of the new sandbox; see launcher.h. `usage` measures a sandbox's
// writable layer (usagewalk.h); `changes` lists what it changed against its template
// (changeswalk.h). `keep` (keeper.h) outlives the server, with its pidfd as fd 3.
// `seccomp` prints the sandbox's seccomp filter, built once for all its sandboxes (launcher.h).
// `quotafs BYTES INODES` is a sandbox's quota file system daemon (quotafsdaemon.h), started by
// its launcher with the layer directory, the setup channel, the lifeline and the log as fds 3-6.
#include "agent/build/launcher.h"
#include "agent/quotafs/quotafsdaemon.h"
#include "agent/tools/keeper.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <iterator>
#include <string>

int main(int argc, char** argv)
{
    if (argc == 4 && std::strcmp(argv[1], "quotafs") == 0) {
        lizard::agent::quotafs::QuotaFsDaemonConfig c;
        c.backing = 3;
        c.channel = 4;
        c.lifeline = 5;
        c.log = 6;
        c.limits.bytes = std::atoll(argv[2]);
        c.limits.inodes = std::atoll(argv[3]);
        if (c.limits.bytes <= 0 || c.limits.inodes <= 0)
            return 2;
        lizard::agent::quotafs::runQuotaFsDaemon(c);
    }
    if (argc == 2 && std::strcmp(argv[1], "seccomp") == 0) {
        // Its configuration is read and not needed: lizard-local writes one to every tool.
        std::string input((std::istreambuf_iterator<char>(std::cin)),
                          std::istreambuf_iterator<char>());
        return lizard::agent::runSeccompExport();
    }
    if (argc == 2 && std::strcmp(argv[1], "keep") == 0) {
        std::string input((std::istreambuf_iterator<char>(std::cin)),
                          std::istreambuf_iterator<char>());
        try {
            return lizard::agent::runKeeper(nlohmann::json::parse(input), 3);
        } catch (const std::exception& e) {
            std::cerr << "lizard-agent keep: bad configuration: " << e.what() << "\n";
            return 2;
        }
    }
    if (argc != 2 || (std::strcmp(argv[1], "init") != 0 && std::strcmp(argv[1], "template") != 0 &&
                      std::strcmp(argv[1], "remove") != 0 && std::strcmp(argv[1], "copy") != 0 &&
                      std::strcmp(argv[1], "usage") != 0 && std::strcmp(argv[1], "changes") != 0)) {
        std::cerr << "usage: lizard-agent init|template|remove|copy|usage|changes < config.json\n"
                     "  Started by lizard-local; not meant to be run by hand.\n";
        return 2;
    }
    std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
    try {
        auto config = lizard::agent::parseLaunchConfig(nlohmann::json::parse(input));
        std::string mode = argv[1] == std::string("init") ? "sandbox" : argv[1];
        if (config.mode != mode) {
            std::cout << nlohmann::json{{"ok", false}, {"error", "mode mismatch"}}.dump()
                      << std::endl;
            return 2;
        }
        return lizard::agent::runLauncher(config);
    } catch (const std::exception& e) {
        std::cout << nlohmann::json{{"ok", false},
                                    {"error", std::string("bad configuration: ") + e.what()}}
                         .dump()
                  << std::endl;
        return 2;
    }
}
