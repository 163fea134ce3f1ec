// Path handling of file requests: the fuzz bytes are a path (and, after the first NUL-free
// line, a user name). lizard-local's checks (api/filerequest) and the agent's
// (agent/serve/filepaths) run on it, and the properties the file operations rely on are asserted.

#include "agent/serve/filepaths.h"
#include "api/filerequest.h"
#include "fuzz_check.h"

#include <string>

using namespace lizard;

namespace {

void agentPath(const std::string& raw)
{
    const auto path = agent::requestPath(raw);
    if (!path) {
        FUZZ_CHECK(raw.empty() || raw[0] != '/' || raw.find('\0') != std::string::npos);
        return;
    }
    // Absolute, no NUL, no trailing '/' except the root itself; only slashes were removed.
    FUZZ_CHECK(!path->empty() && path->front() == '/' && path->find('\0') == std::string::npos);
    FUZZ_CHECK(*path == "/" || path->back() != '/');
    FUZZ_CHECK(raw.compare(0, path->size(), *path) == 0);
    FUZZ_CHECK(raw.find_first_not_of('/', path->size()) == std::string::npos);

    // mkdir -p: every step is a longer prefix of the path, never "" or "/", and ends with it.
    const auto chain = agent::dirChain(*path);
    size_t last = 0;
    for (const std::string& dir : chain) {
        FUZZ_CHECK(!dir.empty() && dir != "/" && dir.size() > last);
        FUZZ_CHECK(path->compare(0, dir.size(), dir) == 0);
        last = dir.size();
    }
    FUZZ_CHECK(*path == "/" ? chain.empty() : !chain.empty() && chain.back() == *path);

    // The parent is a proper prefix ending before a '/', or "" for an entry of the root.
    const std::string parent = agent::parentDir(*path);
    if (!parent.empty()) {
        FUZZ_CHECK(parent.size() < path->size() && (*path)[parent.size()] == '/');
        FUZZ_CHECK(path->compare(0, parent.size(), parent) == 0);
    } else {
        FUZZ_CHECK(path->find('/', 1) == std::string::npos);
    }
}

void apiPath(const std::string& raw, const std::string& user)
{
    if (api::checkPath(raw, "path")) {
        FUZZ_CHECK(!raw.empty() && raw[0] == '/' && raw.size() <= 4096);
        FUZZ_CHECK(raw.find('\0') == std::string::npos);
        FUZZ_CHECK(agent::requestPath(raw).has_value()); // what passes here, the agent takes
    }
    if (auto u = api::fileUser(user)) {
        FUZZ_CHECK(!u->empty() && u->size() <= 64);
        FUZZ_CHECK(u->find_first_of(std::string("/:\n\0", 4)) == std::string::npos);
    }
    FUZZ_CHECK(*api::fileUser(std::nullopt) == "root");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    const auto nl = input.find('\n');
    const std::string path = input.substr(0, nl);
    const std::string user = nl == std::string::npos ? std::string() : input.substr(nl + 1);
    agentPath(path);
    agentPath(input);
    apiPath(path, user);
    return 0;
}
