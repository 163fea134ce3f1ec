// list, stat, remove, move, mkdir.
#include "agent/serve/execspawn.h"
#include "agent/serve/fileentry.h"
#include "agent/serve/fileops.h"
#include "agent/serve/filepaths.h"
#include "agent/serve/fsidentity.h"
#include "agent/serve/pathguard.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lizard::agent {

namespace {

int removeOne(const char* path, const struct stat*, int flag, FTW*)
{
    int r = (flag == FTW_DP || flag == FTW_D) ? ::rmdir(path) : ::unlink(path);
    return r == 0 ? 0 : errno;
}

// rename() across mounts (/tmp → /usr/local...) fails with EXDEV; mv copies then.
int moveWithMv(const std::string& from, const std::string& to, const UserInfo& user,
               AgentContext& context)
{
    SpawnRequest req{
        {"/bin/mv", "-f", "-T", "--", from, to}, {{"PATH", "/usr/bin:/bin"}}, "/", user};
    Spawned child = spawnCommand(req, context.reaper);
    if (!child.errorCode.empty())
        return EXDEV;
    ::close(child.stdoutFd);
    ::close(child.stderrFd);
    pollfd p{child.exit->eventFd(), POLLIN, 0};
    while (!child.exit->exited())
        ::poll(&p, 1, -1);
    int status = child.exit->status();
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : EIO;
}

} // namespace

void handleList(FrameStream& stream, const nlohmann::json& request)
{
    auto path = requirePath(stream, request, "path");
    if (!path)
        return;
    int fd = openNoMagic(*path, O_RDONLY | O_DIRECTORY);
    DIR* dir = fd >= 0 ? ::fdopendir(fd) : nullptr;
    if (!dir) {
        int err = errno;
        if (fd >= 0)
            ::close(fd);
        return void(writePathErrno(stream, err, *path));
    }
    std::vector<std::string> names;
    while (dirent* e = ::readdir(dir)) {
        std::string name = e->d_name;
        if (name != "." && name != "..")
            names.push_back(name);
    }
    ::closedir(dir);
    std::sort(names.begin(), names.end());
    OwnerNames owners;
    auto entries = nlohmann::json::array();
    for (const auto& name : names) {
        if (auto entry = fileEntry(joinPath(*path, name), name, owners))
            entries.push_back(std::move(*entry));
    }
    stream.writeJson({{"ok", true}, {"entries", std::move(entries)}});
}

void handleStat(FrameStream& stream, const nlohmann::json& request)
{
    auto path = requirePath(stream, request, "path");
    if (!path)
        return;
    if (refuseMagicParent(stream, *path))
        return;
    auto entry = fileEntry(*path, baseName(*path), OwnerNames());
    if (!entry)
        return void(writeErrno(stream, errno, *path));
    stream.writeJson({{"ok", true}, {"entry", std::move(*entry)}});
}

void handleRemove(FrameStream& stream, const nlohmann::json& request, AgentContext& context)
{
    auto path = requirePath(stream, request, "path");
    if (!path)
        return;
    if (*path == "/")
        return void(stream.writeError("INVALID_ARGUMENT", "refusing to remove /"));
    auto user = requireUser(stream, request, context);
    if (!user)
        return;
    FsIdentity identity(*user);
    if (refuseMagicParent(stream, *path))
        return;
    struct stat st
    {
    };
    if (::lstat(path->c_str(), &st) != 0)
        return void(writeErrno(stream, errno, *path));
    int err = 0;
    if (S_ISDIR(st.st_mode))
        err = ::nftw(path->c_str(), removeOne, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
    else if (::unlink(path->c_str()) != 0)
        err = errno;
    if (err != 0)
        return void(writeErrno(stream, err > 0 ? err : EIO, *path));
    stream.writeJson({{"ok", true}});
}

void handleMove(FrameStream& stream, const nlohmann::json& request, AgentContext& context)
{
    auto from = requirePath(stream, request, "from");
    if (!from)
        return;
    auto to = requirePath(stream, request, "to");
    if (!to)
        return;
    auto user = requireUser(stream, request, context);
    if (!user)
        return;
    FsIdentity identity(*user);
    if (refuseMagicParent(stream, *from) || refuseMagicParent(stream, *to))
        return;
    struct stat st
    {
    };
    if (::lstat(from->c_str(), &st) != 0)
        return void(writeErrno(stream, errno, *from));
    if (int err = makeParents(*to); err != 0)
        return void(writeErrno(stream, err, *to));
    if (refuseMagicParent(stream, *to))
        return;
    int err = ::rename(from->c_str(), to->c_str()) == 0 ? 0 : errno;
    if (err == EXDEV)
        err = moveWithMv(*from, *to, *user, context);
    if (err != 0)
        return void(writeErrno(stream, err, *to));
    stream.writeJson({{"ok", true}});
}

void handleMkdir(FrameStream& stream, const nlohmann::json& request, AgentContext& context)
{
    auto path = requirePath(stream, request, "path");
    if (!path)
        return;
    auto user = requireUser(stream, request, context);
    if (!user)
        return;
    FsIdentity identity(*user);
    if (refuseMagicParent(stream, *path))
        return;
    if (int err = makeDirs(*path); err != 0)
        return void(writeErrno(stream, err, *path));
    stream.writeJson({{"ok", true}});
}

} // namespace lizard::agent
