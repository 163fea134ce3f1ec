// LinuxRuntime: copies of a sandbox's writable file system (snapshots, forks) and sandboxes
// that start from one.
#include "runtime/agenttool.h"
#include "runtime/linuxruntime.h"
#include "runtime/processtree.h"
#include "runtime/procinfo.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::runtime {

namespace {

// The sandbox's writable layers: the upper directories of the root, /usr and /usr/local
// overlays.
constexpr const char* kLayers[] = {"upper", "usr-upper", "local-upper"};
// Beside the layers of a copy, outside what a sandbox sees: the highest pid its source had in
// use (pidcounter.h).
constexpr const char* kLastPidFile = "last-pid";

// The highest pid, inside the sandbox's pid namespace, of the processes under `initPid`.
pid_t highestPidInside(pid_t initPid)
{
    pid_t highest = 0;
    for (pid_t pid : processTree(initPid))
        highest = std::max(highest, innermostPid(pid));
    return highest;
}

} // namespace

Status LinuxRuntime::makeOwnedDir(const std::string& path, mode_t mode)
{
    if (::mkdir(path.c_str(), mode) != 0)
        return Error{errno == EEXIST ? ErrorKind::Conflict : ErrorKind::Internal,
                     errno == EEXIST ? "CONFLICT" : "INTERNAL", path + ": " + std::strerror(errno)};
    // The copy runs as the sandbox's root (host uid R), which must be able to write here.
    if (::getuid() == 0 && ::chown(path.c_str(), m_ids.hostRoot, m_ids.hostRootGid) != 0)
        return Error{ErrorKind::Internal, "INTERNAL",
                     "chown " + path + ": " + std::strerror(errno)};
    return okStatus();
}

Result<FilesCopy> LinuxRuntime::copyLayers(const std::string& fromDir, const std::string& toDir)
{
    nlohmann::json copies = nlohmann::json::array();
    for (const char* layer : kLayers) {
        // Snapshots and sandboxes from before /usr was copy-on-write have no usr-upper.
        struct stat st
        {
        };
        if (::stat((fromDir + "/" + layer).c_str(), &st) != 0 && errno == ENOENT)
            continue;
        copies.push_back({{"from", fromDir + "/" + layer}, {"to", toDir + "/" + layer}});
    }
    nlohmann::json config{{"mode", "copy"}, {"idMap", m_ids.toJson()}, {"copies", copies}};
    auto done = runAgentTool(m_agentPath, "copy", config, 600000);
    if (!done)
        return Error{ErrorKind::Internal, "COPY_FAILED",
                     "copying the sandbox's files failed: " + done.error().message};
    FilesCopy out;
    out.dir = toDir;
    out.bytes = done->value("bytes", 0ull);
    out.reflinked = done->value("reflinked", 0ull);
    return out;
}

Result<FilesCopy> LinuxRuntime::captureFiles(const SandboxHandle& handle, const std::string& name)
{
    if (!validSandboxId(handle.id) || !validSandboxId(name))
        return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT",
                     "invalid sandbox or copy name"};
    if (::access(sandboxDir(handle.id).c_str(), F_OK) != 0)
        return Error{ErrorKind::NotFound, "NOT_FOUND",
                     "sandbox " + handle.id + " has no files here"};
    const std::string dir = filesDir(name);
    if (auto s = makeOwnedDir(dir, 0700); !s)
        return s.error();
    Status made = okStatus();
    for (const char* layer : kLayers) {
        if (made)
            made = makeOwnedDir(dir + "/" + layer, 0755);
    }
    auto copied = made ? copyLayers(sandboxDir(handle.id), dir) : Result<FilesCopy>(made.error());
    if (!copied)
        removeFiles(name);
    else if (handle.initPid > 0)
        std::ofstream(dir + "/" + kLastPidFile) << highestPidInside(handle.initPid) << "\n";
    return copied;
}

int LinuxRuntime::copiedLastPid(const std::string& name)
{
    int pid = 0;
    if (validSandboxId(name))
        std::ifstream(filesDir(name) + "/" + kLastPidFile) >> pid;
    return pid;
}

void LinuxRuntime::removeFiles(const std::string& name)
{
    if (validSandboxId(name))
        removeTree(m_dataDir + "/files", name);
}

std::vector<std::string> LinuxRuntime::filesNames()
{
    std::vector<std::string> names;
    if (DIR* dir = ::opendir((m_dataDir + "/files").c_str())) {
        while (dirent* e = ::readdir(dir)) {
            const std::string name = e->d_name;
            if (name != "." && name != "..")
                names.push_back(name);
        }
        ::closedir(dir);
    }
    return names;
}

} // namespace lizard::runtime
