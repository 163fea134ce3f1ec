#include "runtime/volumestorage.h"

#include "agent/tools/treeremover.h"
#include "common/fileutil.h"
#include "common/log.h"
#include "runtime/agenttool.h"
#include "runtime/ext4image.h"
#include "runtime/hostcommand.h"
#include "runtime/loopdevice.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::runtime {

namespace {

constexpr long long kGiB = 1024LL * 1024 * 1024;
constexpr int kReleaseWaitMs = 10000;

Error ioError(const std::string& what)
{
    return Error{ErrorKind::Internal, "INTERNAL", what + ": " + std::strerror(errno)};
}

Status growImageFile(const std::string& image, int sizeGb)
{
    struct stat st
    {
    };
    if (::stat(image.c_str(), &st) != 0)
        return ioError(image);
    const long long size = sizeGb * kGiB;
    if (st.st_size < size && ::truncate(image.c_str(), size) != 0)
        return ioError("growing " + image);
    return okStatus();
}

} // namespace

bool validVolumeId(const std::string& id)
{
    if (id.size() < 5 || id.size() > 64 || id.rfind("vol_", 0) != 0)
        return false;
    for (size_t i = 4; i < id.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(id[i]);
        if (!std::islower(c) && !std::isdigit(c))
            return false;
    }
    return true;
}

VolumeStorage::VolumeStorage(std::string dataDir)
    : m_dataDir(std::move(dataDir)), m_root(m_dataDir + "/volumes"), m_ids(chooseIdMapping())
{
    m_mkfs = findHostProgram("mkfs.ext4");
    m_resize2fs = findHostProgram("resize2fs");
    m_debugfs = findHostProgram("debugfs");
    if (!loopDevicesUsable(m_note))
        return;
    if (m_mkfs.empty() || m_resize2fs.empty()) {
        m_note = "mkfs.ext4 or resize2fs is missing (Debian: apt install e2fsprogs)";
        return;
    }
    m_enforce = probeImages();
}

bool VolumeStorage::probeImages()
{
    // Volumes degrade to directories instead of failing when the host cannot mount images.
    m_note = probeExt4Mount(m_mkfs, m_root);
    return m_note.empty();
}

Result<bool> VolumeStorage::create(const std::string& id, int sizeGb)
{
    if (!validVolumeId(id))
        return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT", "invalid volume id: " + id};
    std::lock_guard lock(m_mutex);
    if (::mkdir(m_root.c_str(), 0700) != 0 && errno != EEXIST)
        return ioError(m_root);
    const std::string d = dir(id);
    if (::mkdir(d.c_str(), 0700) != 0)
        return ioError(d);
    if (m_enforce) {
        const std::string image = d + "/disk.img";
        const std::string owner =
            std::to_string(m_ids.hostRoot) + ":" + std::to_string(m_ids.hostRootGid);
        Status s = makeExt4Image(m_mkfs, image, sizeGb * kGiB,
                                 {"-m", "0", "-L", "lizard-volume", "-E",
                                  "lazy_itable_init=1,lazy_journal_init=1,root_owner=" + owner},
                                 "VOLUME_CREATE_FAILED");
        // An empty /workspace, as a directory volume has: lost+found is e2fsck's, which makes
        // it again when it needs it.
        if (s && !m_debugfs.empty())
            runHostCommand({m_debugfs, "-w", "-R", "rmdir lost+found", image}, 30000);
        if (s && ::mkdir((d + "/mnt").c_str(), 0700) != 0)
            s = ioError(d + "/mnt");
        if (s)
            return true;
        // Degrade to a plain directory: the volume works, its size is not enforced.
        ::unlink(image.c_str());
        ::rmdir((d + "/mnt").c_str());
    }
    const std::string data = d + "/data";
    if (::mkdir(data.c_str(), 0755) != 0)
        return ioError(data);
    // The sandbox's root (host uid R) owns the volume's root directory.
    if (::geteuid() == 0 && ::chown(data.c_str(), m_ids.hostRoot, m_ids.hostRootGid) != 0)
        return ioError("chown " + data);
    return false;
}

Result<bool> VolumeStorage::grow(const std::string& id, int sizeGb, bool enforced, pid_t holderPid)
{
    if (!enforced)
        return true; // the size is recorded only
    std::lock_guard lock(m_mutex);
    const std::string image = dir(id) + "/disk.img";
    if (holderPid <= 0 && !waitLoopReleased(image, kReleaseWaitMs))
        return Error{ErrorKind::Conflict, "VOLUME_RESIZE_IN_PROGRESS",
                     "the volume is still being released"};
    if (Status s = growImageFile(image, sizeGb); !s)
        return s.error();
    if (holderPid > 0) {
        const Status online =
            growMountedImage(image, "/proc/" + std::to_string(holderPid) + "/root/workspace");
        if (online)
            return true;
        log::warn("volume " + id + ": " + online.error().message + "; it grows when next attached");
        std::ofstream(dir(id) + "/grow-pending") << sizeGb << "\n";
        return false;
    }
    if (Status s = runHostCommand({m_resize2fs, "-f", image}, 120000, "VOLUME_RESIZE_FAILED"); !s)
        return s.error();
    ::unlink((dir(id) + "/grow-pending").c_str());
    return true;
}

Status VolumeStorage::removeTree(const std::string& path)
{
    if (!pathExists(path))
        return okStatus();
    if (m_ids.kind == "subid") { // files of the sandbox's other uids: removed inside its userns
        auto r =
            runAgentTool(findAgentBinary(), "remove",
                         {{"mode", "remove"}, {"idMap", m_ids.toJson()}, {"target", path}}, 120000);
        if (!r)
            return r.error();
    }
    const auto slash = path.find_last_of('/'); // paths here are always absolute
    int parent = ::open(path.substr(0, slash).c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (parent < 0)
        return ioError(path);
    const std::string e = agent::removeTreeAt(parent, path.substr(slash + 1));
    ::close(parent);
    if (!e.empty())
        return Error{ErrorKind::Internal, "INTERNAL", "removing " + path + ": " + e};
    return okStatus();
}

Status VolumeStorage::remove(const std::string& id)
{
    if (!validVolumeId(id))
        return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT", "invalid volume id: " + id};
    std::lock_guard lock(m_mutex);
    const std::string d = dir(id);
    if (pathExists(d + "/disk.img") && !waitLoopReleased(d + "/disk.img", kReleaseWaitMs))
        return Error{ErrorKind::Conflict, "VOLUME_ATTACHED",
                     "the volume is still being released; try again"};
    if (Status s = removeTree(d + "/data"); !s)
        return s;
    return removeTree(d);
}

Result<VolumeMount> VolumeStorage::prepareAttach(const std::string& id, bool enforced)
{
    if (!validVolumeId(id))
        return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT", "invalid volume id: " + id};
    std::lock_guard lock(m_mutex);
    VolumeMount m;
    const std::string d = dir(id);
    m.initOwner = m_ids.fullRange() && !pathExists(d + "/owner-set");
    if (!enforced) {
        m.hostDir = d + "/data";
        if (!pathExists(m.hostDir))
            return Error{ErrorKind::Internal, "VOLUME_MISSING",
                         "the volume's directory is gone: " + m.hostDir};
        return m;
    }
    const std::string image = d + "/disk.img";
    if (!waitLoopReleased(image, kReleaseWaitMs))
        return Error{ErrorKind::Conflict, "VOLUME_ATTACHED",
                     "the volume is still being released by its last sandbox"};
    if (pathExists(d +
                   "/grow-pending")) { // grown while attached, where online resize is not allowed
        if (Status s = runHostCommand({m_resize2fs, "-f", image}, 120000, "VOLUME_RESIZE_FAILED");
            s)
            ::unlink((d + "/grow-pending").c_str());
        else
            log::warn("volume " + id + ": " + s.error().message);
    }
    m.hostDir = d + "/mnt";
    if (Status s = mountImage(image, m.hostDir); !s)
        return s.error();
    return m;
}

void VolumeStorage::finishAttach(const std::string& id, bool enforced, bool started,
                                 const VolumeMount& m)
{
    std::lock_guard lock(m_mutex);
    if (enforced)
        ::umount2(m.hostDir.c_str(), MNT_DETACH); // the sandbox's mount namespace keeps its copy
    if (started && m.initOwner)
        std::ofstream(dir(id) + "/owner-set") << "1000:1000\n";
}

} // namespace lizard::runtime
