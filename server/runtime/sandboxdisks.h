#pragma once
// Bounds each sandbox's writable layer (the root and /usr/local overlay uppers and their work
// directories). As root with loop devices, <data>/sandboxes/<id> is itself a mount of a sparse
// ext4 image <data>/disks/<id>.img of the sandbox's size: a write past it fails with ENOSPC
// inside the sandbox, and its `df /` (overlay reports its upper's file system) shows that
// size. The image is a copy of a formatted one per size (<data>/disks/.golden-*), so a create
// costs a copy of a few hundred KiB and a mount, not an mkfs; default-size disks are even
// mounted ahead (<data>/disks/.pool), so a create only moves a mount. The host keeps the mount for
// the sandbox's lifetime: snapshots and forks read the layers on the host, and a restarted
// lizard-local finds it still mounted. As an ordinary user nothing is bounded (the kernel
// mounts ext4 only in the initial user namespace; see README "Disk"): enforced() is false.

#include "common/result.h"
#include "runtime/idmapping.h"

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace lizard::runtime {

class SandboxDisks
{
public:
    static constexpr int kDefaultGb = 10;
    static constexpr int kMinGb = 1;
    static constexpr int kMaxGb = 256;

    // `layout`: the directories every disk has at its root, owned by the sandbox's root (made
    // with the disk, so that a pooled one comes with them). Probes the host (blocking).
    SandboxDisks(std::string dataDir, IdMapping ids, std::vector<std::string> layout);
    ~SandboxDisks(); // unmounts the pool (sandboxes keep their disks)
    SandboxDisks(const SandboxDisks&) = delete;
    SandboxDisks& operator=(const SandboxDisks&) = delete;

    bool enforced() const { return m_enforce; }
    const std::string& note() const { return m_note; } // why not, when !enforced()

    // Mounts a fresh image of `sizeGb` GiB on `mountPoint` (the sandbox's new, empty
    // directory) and gives its root and the layout's directories to the sandbox's root.
    // Nothing is left on failure.
    Status attach(const std::string& id, int sizeGb, const std::string& mountPoint);
    // Unmounts `mountPoint` and deletes the image. Idempotent; the sandbox's processes must
    // be gone (their mount namespace holds the loop device until then).
    void release(const std::string& id, const std::string& mountPoint);
    // The size of the sandbox's image in GiB; 0 when it has none (nothing enforced). Every GET
    // of a sandbox asks: known since its attach (or its first stat after a restart).
    int sizeGb(const std::string& id) const;
    // Sandbox ids that have an image (to find orphans).
    std::vector<std::string> ids() const;

private:
    struct Ready // a pooled disk, mounted and prepared, waiting for its sandbox
    {
        std::string image, mountPoint;
    };
    Result<std::string> golden(int sizeGb); // the formatted image copies are made from
    std::string image(const std::string& id) const { return m_root + "/" + id + ".img"; }
    // Copies the golden image of `sizeGb` to `img`, mounts it on `mountPoint` and prepares it.
    Status prepare(const std::string& img, int sizeGb, const std::string& mountPoint);
    // The pool of default-size disks (sandboxdisks_pool.cpp): a loop device setup and an
    // ext4 mount cost 10-20 ms, done ahead on a thread; a create only moves a mount.
    void startPool();
    void stopPool();
    void fillPool();
    bool takeFromPool(const std::string& id, const std::string& mountPoint);
    void clearPoolDir();

    std::string m_root; // <data>/disks
    std::string m_pool; // <data>/disks/.pool
    IdMapping m_ids;
    std::vector<std::string> m_layout;
    std::string m_mkfs;
    bool m_enforce = false;
    std::string m_note;
    std::mutex m_goldenMutex;
    std::mutex m_poolMutex;
    std::condition_variable m_poolWake;
    std::vector<Ready> m_ready;
    bool m_stopping = false;
    unsigned m_poolSeq = 0;
    std::thread m_filler;
    mutable std::mutex m_sizesMutex;
    mutable std::unordered_map<std::string, int> m_sizes; // GiB, by sandbox id
};

} // namespace lizard::runtime
