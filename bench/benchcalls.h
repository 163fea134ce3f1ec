#pragma once
// What the lifecycle and pool figures do around their measurements: sandboxes started until
// running, commands that must succeed, and whatever they made deleted at the end.

#include "apiclient.h"
#include "figure.h"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lizard::bench {

// Deletes what a benchmark made (sandboxes, snapshots), whatever happens.
class Leftovers
{
public:
    explicit Leftovers(ApiClient& api) : m_api(api) {}
    ~Leftovers();
    void sandbox(const std::string& id) { m_sandboxes.push_back(id); }
    void snapshot(const std::string& id) { m_snapshots.push_back(id); }

private:
    ApiClient& m_api;
    std::vector<std::string> m_sandboxes, m_snapshots;
};

// POST /api/sandboxes with `body`; the id of a running sandbox or "" with `error`.
std::string start(ApiClient& api, const nlohmann::json& body, Leftovers& left, std::string& error);
// Runs `cmd` in the sandbox; false with `error` unless it exits 0.
bool run(ApiClient& api, const std::string& id, const std::string& cmd, std::string& error);
// A figure in ms of `runs` samples; finish() sets its median and spread.
Figure figure(const std::string& name, int runs, double target);
void finish(Figure& f, const std::vector<double>& samples);

} // namespace lizard::bench
