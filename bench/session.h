#pragma once
// The API calls the benchmarks need around their measurements: a project to create sandboxes
// in, creating a sandbox until it runs, and deleting it.

#include "apiclient.h"

#include <set>
#include <string>
#include <vector>

namespace lizard::bench {

class Session
{
public:
    explicit Session(ApiClient& api) : m_api(api) {}
    ~Session(); // deletes every sandbox it created and did not delete yet
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Finds the project named "bench" or creates it. False with error() on failure.
    bool ensureProject();
    const std::string& projectId() const { return m_projectId; }

    // POST /api/sandboxes, then (if the answer is not yet "running") polls GET until it is.
    // Returns the sandbox id, or "" with error().
    std::string createRunning(long lifetimeMs);
    // `count` of them, one after the other, after ensureProject(); stops at the first failure
    // (then fewer ids, and error()).
    std::vector<std::string> createRunningMany(int count, long lifetimeMs);
    bool destroy(const std::string& sandboxId);

    const std::string& error() const { return m_error; }

private:
    ApiClient& m_api;
    std::string m_projectId;
    std::string m_error;
    std::set<std::string> m_live;
};

} // namespace lizard::bench
