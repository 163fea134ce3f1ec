// SandboxDisks: default-size disks mounted ahead, so a sandbox create only moves a mount.
#include "common/log.h"
#include "runtime/sandboxdisks.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

namespace lizard::runtime {

namespace {

constexpr size_t kPoolSize = 2; // creates come one by one; a fork of many takes the slow path
constexpr auto kPoolRetry = std::chrono::seconds(10);

} // namespace

void SandboxDisks::startPool()
{
    m_pool = m_root + "/.pool";
    clearPoolDir();
    if (::mkdir(m_pool.c_str(), 0700) != 0 && errno != EEXIST)
        return;
    // A mount moves only out of a parent that is not shared (a systemd host's / is): the pool
    // is its own private mount.
    if (::mount(m_pool.c_str(), m_pool.c_str(), nullptr, MS_BIND, nullptr) == 0)
        ::mount(nullptr, m_pool.c_str(), nullptr, MS_PRIVATE, nullptr);
    m_filler = std::thread([this] { fillPool(); });
}

void SandboxDisks::stopPool()
{
    if (!m_filler.joinable())
        return;
    {
        std::lock_guard lock(m_poolMutex);
        m_stopping = true;
    }
    m_poolWake.notify_all();
    m_filler.join();
    clearPoolDir();
}

// Leftovers of this server or of one that was killed: nobody else uses this pool.
void SandboxDisks::clearPoolDir()
{
    ::umount2(m_pool.c_str(), MNT_DETACH); // with every pooled disk under it
    if (DIR* dir = ::opendir(m_pool.c_str())) {
        while (dirent* e = ::readdir(dir)) {
            const std::string name = e->d_name, path = m_pool + "/" + name;
            if (name == "." || name == "..")
                continue;
            if (::unlink(path.c_str()) != 0) {
                ::umount2(path.c_str(), MNT_DETACH);
                ::rmdir(path.c_str());
            }
        }
        ::closedir(dir);
    }
    if (DIR* dir = ::opendir(m_root.c_str())) {
        while (dirent* e = ::readdir(dir)) {
            const std::string name = e->d_name;
            if (name.rfind(".pool-", 0) == 0)
                ::unlink((m_root + "/" + name).c_str());
        }
        ::closedir(dir);
    }
    m_ready.clear();
}

void SandboxDisks::fillPool()
{
    std::unique_lock lock(m_poolMutex);
    while (!m_stopping) {
        if (m_ready.size() >= kPoolSize) {
            m_poolWake.wait(lock);
            continue;
        }
        const std::string n = std::to_string(++m_poolSeq);
        lock.unlock();
        // The image beside the sandboxes' (a rename cannot leave the pool's bind mount).
        Ready r{m_root + "/.pool-" + n + ".img", m_pool + "/" + n};
        Status s = ::mkdir(r.mountPoint.c_str(), 0700) == 0
                       ? prepare(r.image, kDefaultGb, r.mountPoint)
                       : Status(Error{ErrorKind::Internal, "SANDBOX_DISK_FAILED",
                                      r.mountPoint + ": " + std::strerror(errno)});
        lock.lock();
        if (s) {
            m_ready.push_back(r);
            continue;
        }
        ::rmdir(r.mountPoint.c_str());
        log::warn("sandbox disk pool: " + s.error().message +
                  " (creates mount their disks themselves)");
        m_poolWake.wait_for(lock, kPoolRetry);
    }
}

bool SandboxDisks::takeFromPool(const std::string& id, const std::string& mountPoint)
{
    Ready r;
    {
        std::lock_guard lock(m_poolMutex);
        if (m_ready.empty())
            return false;
        r = m_ready.back();
        m_ready.pop_back();
    }
    m_poolWake.notify_all();
    if (::mount(r.mountPoint.c_str(), mountPoint.c_str(), nullptr, MS_MOVE, nullptr) != 0) {
        log::warn("sandbox disk pool: moving " + r.mountPoint + ": " + std::strerror(errno));
        ::umount2(r.mountPoint.c_str(), MNT_DETACH);
        ::unlink(r.image.c_str());
        ::rmdir(r.mountPoint.c_str());
        return false;
    }
    ::rmdir(r.mountPoint.c_str());
    // The loop device follows the file (its backing_file names the new path).
    if (::rename(r.image.c_str(), image(id).c_str()) != 0) {
        log::warn("sandbox disk pool: renaming " + r.image + ": " + std::strerror(errno));
        ::umount2(mountPoint.c_str(), MNT_DETACH);
        ::unlink(r.image.c_str());
        return false;
    }
    return true;
}

} // namespace lizard::runtime
