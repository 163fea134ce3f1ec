// main() of a bundle of suites (suitemain.h).

#include "support/suitemain.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

namespace lizard::test {
namespace {

struct Registry
{
    std::map<std::string, SuiteMain> suites;
    std::string duplicate; // a name registered twice
};

Registry& registry()
{
    static Registry r; // built on first use: registrations run during static initialisation
    return r;
}

std::string suiteName(const char* file)
{
    std::string name = file;
    if (const auto slash = name.rfind('/'); slash != std::string::npos)
        name.erase(0, slash + 1);
    if (const auto dot = name.rfind('.'); dot != std::string::npos)
        name.erase(dot);
    return name;
}

} // namespace

bool registerSuite(const char* file, SuiteMain run)
{
    const std::string name = suiteName(file);
    if (!registry().suites.emplace(name, run).second) {
        registry().duplicate = name;
        return false;
    }
    return true;
}

} // namespace lizard::test

int main(int argc, char** argv)
{
    const auto& r = lizard::test::registry();
    if (!r.duplicate.empty()) {
        std::fprintf(stderr, "%s: two suites are named %s\n", argv[0], r.duplicate.c_str());
        return 2;
    }
    const auto it = argc >= 2 ? r.suites.find(argv[1]) : r.suites.end();
    if (it == r.suites.end()) {
        std::fprintf(stderr, "usage: %s SUITE [Qt Test options]\nsuites:", argv[0]);
        for (const auto& [name, run] : r.suites)
            std::fprintf(stderr, " %s", name.c_str());
        std::fprintf(stderr, "\n");
        return argc >= 2 ? 2 : 0;
    }
    // The suite sees itself as the program: argv[0] is its name (QCoreApplication's
    // applicationName), its options follow.
    return it->second(argc - 1, argv + 1);
}
