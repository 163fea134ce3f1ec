// CgroupManager: the freezer of a sandbox's cgroup (pause and resume).
#include "runtime/cgroupmanager.h"

#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace lizard::runtime {

namespace {

std::string readAll(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool writeValue(const std::string& path, const std::string& value)
{
    std::ofstream out(path);
    out << value;
    out.flush();
    return out.good();
}

// v2: "frozen 1" in cgroup.events; v1: freezer.state reads FROZEN (FREEZING on the way).
bool reportsFrozen(const std::string& kind, const std::string& dir)
{
    if (kind == "cgroup-v2")
        return readAll(dir + "/cgroup.events").find("frozen 1") != std::string::npos;
    return readAll(dir + "/freezer.state").rfind("FROZEN", 0) == 0;
}

} // namespace

std::string CgroupManager::freezerDir(const std::string& id) const
{
    if (m_mode == "v2" && !m_v2Base.empty())
        return m_v2Base + "/" + id;
    if (m_mode == "v1" && m_v1Bases.size() == 4) // memory, pids, cpu, freezer
        return m_v1Bases[3] + "/" + id;
    return {};
}

std::string CgroupManager::freezerKind(const std::string& id) const
{
    const std::string dir = freezerDir(id);
    if (dir.empty())
        return {};
    if (m_mode == "v2")
        return ::access((dir + "/cgroup.freeze").c_str(), W_OK) == 0 ? "cgroup-v2" : "";
    return ::access((dir + "/freezer.state").c_str(), W_OK) == 0 ? "cgroup-v1" : "";
}

std::string CgroupManager::setFrozen(const std::string& id, bool frozen, int timeoutMs) const
{
    const std::string kind = freezerKind(id);
    if (kind.empty())
        return "the sandbox has no cgroup freezer";
    const std::string dir = freezerDir(id);
    const std::string file = kind == "cgroup-v2" ? dir + "/cgroup.freeze" : dir + "/freezer.state";
    const std::string value =
        kind == "cgroup-v2" ? (frozen ? "1" : "0") : (frozen ? "FROZEN" : "THAWED");
    if (!writeValue(file, value))
        return "cannot write " + file;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
    for (int i = 0;; ++i) {
        if (reportsFrozen(kind, dir) == frozen)
            return {};
        if (std::chrono::steady_clock::now() >= deadline)
            break;
        // v1 may stay FREEZING while a task sleeps uninterruptibly: asking again retries it.
        if (kind == "cgroup-v1" && frozen && i % 20 == 19)
            writeValue(file, value);
        std::this_thread::sleep_for(std::chrono::microseconds(i < 50 ? 200 : 2000));
    }
    return std::string("the kernel did not report the sandbox ") + (frozen ? "frozen" : "thawed") +
           " within " + std::to_string(timeoutMs) + " ms";
}

bool CgroupManager::isFrozen(const std::string& id) const
{
    const std::string kind = freezerKind(id);
    return !kind.empty() && reportsFrozen(kind, freezerDir(id));
}

} // namespace lizard::runtime
