#include "sandboxes/runnersource.h"

#include <cstring>

namespace lizard::sandboxes {

bool isShippedRunner(const std::vector<std::string>& argv)
{
    if (argv.size() != 4 || argv[0] != "python3" || argv[1] != "-c")
        return false;
    static const std::size_t size = std::strlen(runnerSource());
    return argv[2].size() == size && argv[2] == runnerSource();
}

} // namespace lizard::sandboxes
