// lizard-local: the Lizard API on 127.0.0.1 with real Linux sandboxes.
#include "common/options.h"
#include "service/doctor.h"
#include "service/service.h"

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv)
{
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.size() == 1 && args[0] == "doctor")
        return lizard::service::runDoctor();
    auto options = lizard::parseOptions(args);
    if (!options) {
        std::fprintf(stderr, "lizard-local: %s\n%s", options.error().message.c_str(),
                     lizard::usageText().c_str());
        return 2;
    }
    if (options->help) {
        std::fputs(lizard::usageText().c_str(), stdout);
        return 0;
    }
    if (options->version) {
        std::printf("lizard-local %s\n", LIZARD_VERSION);
        return 0;
    }
    return lizard::service::runService(*options);
}
