#pragma once
// The quota file system as an ordinary user's disk bound (agent/quotafs/quotafsdaemon.h): where
// lizard-local cannot mount disk images (SandboxDisks::enforced() false) but may mount FUSE in a
// user namespace (/dev/fuse usable by its user, as Debian and Ubuntu desktops have it), each
// sandbox's layer directory is served by a daemon of its own that refuses writes past diskGb
// with ENOSPC, bounds its inodes and answers df. Where it cannot, the disk watch stays
// (diskwatch.h). This class probes the host, says how a new sandbox is bounded, and keeps what a
// restarted lizard-local needs to know of each quota'd sandbox in its directory: disk-quota.gb
// (its size) and quotafs.pid (the daemon's pid and start time).

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <sys/types.h>

namespace lizard::runtime {

class QuotaDisks
{
public:
    explicit QuotaDisks(std::string sandboxesDir); // probes the host (a FUSE mount, ~1 ms)

    bool usable() const { return m_usable; }
    const std::string& note() const { return m_note; } // why not, when !usable()

    // The launcher's "diskQuota" for a disk of `gb` GiB.
    static nlohmann::json launchConfig(int gb);
    static std::int64_t bytesOf(int gb) { return std::int64_t(gb) << 30; }

    // Sandbox `id` started with a quota file system of `gb` GiB served by `daemon`.
    void started(const std::string& id, int gb, pid_t daemon);
    // A sandbox found running after a restart: true (and remembered) if it has one.
    bool adopt(const std::string& id);
    // Its size in GiB; 0 when the sandbox has no quota file system.
    int sizeGb(const std::string& id) const;
    // The sandbox's processes are gone: its daemon ends by itself once the kernel drops the
    // mount; one that is still there a moment later is killed. Idempotent.
    void release(const std::string& id);

private:
    std::string dir(const std::string& id) const { return m_sandboxesDir + "/" + id; }

    std::string m_sandboxesDir;
    bool m_usable = false;
    std::string m_note;
    mutable std::mutex m_mutex;
    std::map<std::string, int> m_sizes;
};

// Whether FUSE may be mounted in a user namespace here by this user: /dev/fuse opened and a FUSE
// file system created (never attached) in a throwaway namespace. Empty when it may; otherwise
// why not, with the fix. LIZARD_TEST_NO_FUSE (tests only) answers as a host whose /dev/fuse is
// root's 0600 would.
std::string probeFuse();

} // namespace lizard::runtime
