#pragma once
// Where volumes live on the host: <dataDir>/volumes/<id>/. As root with loop devices and
// mkfs.ext4, a volume is an ext4 image (disk.img, sparse) that really caps its size; otherwise
// a plain directory (data/) whose size is recorded but not enforced. Blocking calls.

#include "common/result.h"
#include "runtime/idmapping.h"

#include <mutex>
#include <string>
#include <sys/types.h>

namespace lizard::runtime {

// What a sandbox start needs to bind the volume at /workspace.
struct VolumeMount
{
    std::string hostDir;    // the directory to bind (data/ or the image's mount point)
    bool initOwner = false; // first attach: the sandbox gives /workspace to its user (1000)
};

class VolumeStorage
{
public:
    explicit VolumeStorage(std::string dataDir);

    bool enforcesSize() const { return m_enforce; }
    const std::string& note() const { return m_note; } // why sizes are not enforced

    // Creates the volume's storage; answers whether its size is enforced.
    Result<bool> create(const std::string& id, int sizeGb);
    // Grows it; `holderPid` (host pid of the sandbox's PID 1, 0 if none) has it mounted.
    // Answers false when the file system of an attached image could not grow online (the
    // host lacks CAP_SYS_RESOURCE): it grows when it is next attached.
    Result<bool> grow(const std::string& id, int sizeGb, bool enforced, pid_t holderPid);
    Status remove(const std::string& id);

    // Before a sandbox starts with the volume (mounts an image on the host for the bind).
    Result<VolumeMount> prepareAttach(const std::string& id, bool enforced);
    // After the start (or its failure): the host lets go of its mount; the sandbox keeps it.
    void finishAttach(const std::string& id, bool enforced, bool started, const VolumeMount& m);

private:
    std::string dir(const std::string& id) const { return m_root + "/" + id; }
    Status removeTree(const std::string& path);
    bool probeImages(); // can this host mount an ext4 image? (sets m_note when not)

    std::string m_dataDir;
    std::string m_root; // <dataDir>/volumes
    IdMapping m_ids;
    bool m_enforce = false;
    std::string m_note;
    std::string m_mkfs, m_resize2fs, m_debugfs;
    std::mutex m_mutex; // one storage operation at a time
};

// Volume ids become directory names: "vol_" and lowercase letters/digits only.
bool validVolumeId(const std::string& id);

} // namespace lizard::runtime
