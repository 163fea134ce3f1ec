#pragma once
// What lizard-local tells `lizard-agent init|template|remove` on stdin (one JSON object).

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace lizard::agent {

// How sandbox uids map to host uids (see the runtime brief): "root" maps 0..65535 to
// hostRoot..; "subid" maps 0 to the caller and 1..65535 to its subordinate range (with
// newuidmap/newgidmap); "single" maps only 0 to the caller.
struct IdMap
{
    std::string kind = "single";
    uid_t uid = 0; // caller's uid/gid (subid, single)
    gid_t gid = 0;
    uid_t hostRoot = 0; // root kind: first host uid/gid of the range
    uid_t subUid = 0;   // subid kind: first subordinate uid/gid
    gid_t subGid = 0;
    unsigned count = 65536;
};

// slirp4netns tells PID 1 that it is ready, and PID 1 passes that on to the launcher:
// slirp4netns, running as the server's user, opens /proc/<PID 1>/ns/user (with
// --enable-sandbox even after it has set up tap0), which for an ordinary user only works
// while PID 1 is dumpable; so PID 1 stays dumpable until slirp4netns is ready. PID 1 (and the
// launcher's child) inherit all four ends; each side closes those it does not use.
struct SlirpPipes
{
    int slirpWrite = -1;   // slirp4netns' --ready-fd
    int initRead = -1;     // PID 1 waits on it
    int initRelay = -1;    // PID 1 passes the byte on
    int launcherRead = -1; // the launcher waits on it
};

// Bounds the sandbox gets from the kernel whatever cgroups allow (rlimits.h). 0: none.
struct SandboxRlimits
{
    int pids = 0;     // tasks (processes and threads) of the whole sandbox
    int memoryMb = 0; // data memory of each process
};

struct LaunchConfig
{
    std::string mode; // "sandbox", "template", "remove", "copy", "usage" or "changes"
    IdMap idMap;
    std::string newuidmap = "/usr/bin/newuidmap";
    std::string newgidmap = "/usr/bin/newgidmap";
    // sandbox
    std::string id;
    std::string socketPath;
    std::string templateRoot;
    std::string templateUsrDirs;
    std::string templateUsrLocal;
    std::string sandboxDir;
    std::vector<std::string> cgroupProcs;
    // The workload's cgroup.procs (v2 threaded: cgroup.threads): PID 1 keeps it open and each
    // exec'd command writes itself into it (runtime/cgroupmanager.h); empty: commands stay in
    // PID 1's cgroups.
    std::string workloadCgroupProcs;
    std::map<std::string, std::string> envs;
    std::string slirp; // slirp4netns path when the sandbox gets internet access
    // Prohibit routes PID 1 installs with internet access (netguard.h). Not read from the
    // JSON: the launcher fills it on the host side, so it is fresh at every start.
    std::vector<std::string> blockedPrefixes;
    SlirpPipes slirpReady; // set by the launcher only
    // allowedHosts (allowpolicy.h): with allowList, only these are reachable through slirp4netns:
    // IPv4 prefixes on every port, names (exact or "*.suffix", lower case) on TCP 80 and 443.
    bool allowList = false;
    std::vector<std::string> allowCidrs;
    std::vector<std::string> allowNames;
    std::string dnsUpstream; // "IP:PORT"; empty: the host's /etc/resolv.conf
    std::string hostname = "lizard";
    std::string volumeDir;        // host directory bound at /workspace ("" = no volume)
    bool volumeInitOwner = false; // chown /workspace to 1000:1000 (a volume's first attach)
    SandboxRlimits rlimits;
    int shmMb = 0; // size of /dev/shm in MiB; 0: the default (sandboxroot.h)
    // No disk image bounds the writable layer, only the disk watch (measured every few
    // seconds): the seccomp filter then refuses fallocate's allocations (seccompfilter.h).
    bool diskWatched = false;
    // The seccomp filter for diskWatched as raw BPF, exported by `lizard-agent seccomp` when
    // lizard-local started (seccompfilter.h); empty: PID 1 builds it. Hex in the JSON.
    std::string seccompProgram;
    // Bytes and inodes of the sandbox's quota file system (agent/quotafs/quotafsdaemon.h): its
    // layer directory is served by a FUSE daemon that bounds both. 0: none (an image or the watch).
    std::int64_t quotaBytes = 0;
    std::int64_t quotaInodes = 0;
    // The sandbox's lifetime when lizard-local is gone (lease.h): unix ms, 0 = none; and the
    // grace period without a renewal, 0 = never.
    std::int64_t endAtMs = 0;
    std::int64_t orphanGraceMs = 0;
    // A copy (fork, restore): the highest pid its source used. PID 1 starts the sandbox's pid
    // counter past it (pidcounter.h). 0: a fresh sandbox.
    int pidFloor = 0;
    // template, remove and usage
    std::string target;
    int timeoutMs = 5000; // usage: the walk's time bound
    bool resolvConf = false;
    // copy: the contents of each `first` directory into the existing `second` directory
    std::vector<std::pair<std::string, std::string>> copies;
    // changes: each overlay's upper, its lowers (uppermost first) and where it is mounted
    struct ChangeLayerPaths
    {
        std::string upper;
        std::vector<std::string> lowers;
        std::string at;
    };
    std::vector<ChangeLayerPaths> changeLayers;
    std::vector<std::string> exclude;
    std::size_t limit = 200000;
    // "list" (the default), "archive" (a tar of the changes) or "file" (`path` as the layers
    // show it, at most `maxBytes`): changesarchive.h
    std::string changesOp = "list";
    std::string path;
    std::uint64_t maxBytes = 16u << 20;
};

// Throws nlohmann::json exceptions on malformed input (caught by main).
// Throws on a malformed configuration (the caller reports "bad configuration").
LaunchConfig parseLaunchConfig(const nlohmann::json& j);
// Bytes as lower-case hex and back (fromHex throws std::invalid_argument on anything else).
std::string toHex(const std::string& bytes);
std::string fromHex(const std::string& text);
nlohmann::json toJson(const IdMap& map);

} // namespace lizard::agent
