#include "agent/tools/changeswalk.h"

#include "common/jsonstring.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <unordered_set>

namespace lizard::agent {

bool hasOverlayMark(int dirFd, const char* name, const char* mark)
{
    // getxattr needs a path; the layer's directory descriptor gives one through /proc.
    const std::string path = "/proc/self/fd/" + std::to_string(dirFd) + "/" + name;
    char value[4] = {};
    const std::string attr = std::string("user.overlay.") + mark;
    const ssize_t n = ::lgetxattr(path.c_str(), attr.c_str(), value, sizeof value);
    return n > 0 && value[0] == 'y';
}

bool isWhiteout(const struct stat& st)
{
    return S_ISCHR(st.st_mode) && st.st_rdev == makedev(0, 0);
}

namespace {

// Deeper than any tree a sandbox makes by accident; past it the list says it is truncated.
// Each level holds a few descriptors open (its listing, its upper and lower directories): 128
// levels stay well inside the usual 1024.
constexpr std::size_t kMaxDepth = 128;

char typeOf(mode_t mode)
{
    return S_ISREG(mode) ? 'f' : S_ISDIR(mode) ? 'd' : S_ISLNK(mode) ? 'l' : 'o';
}

// Whether a directory's owner differs from its template's. A lower layer the sandbox sees
// through an idmapped mount (the host's /usr) has owners this namespace does not map: they
// read as the overflow id, and cannot be compared.
bool newOwner(const struct stat& lower, const struct stat& upper)
{
    constexpr uid_t kOverflowId = 65534;
    return (lower.st_uid != kOverflowId && lower.st_uid != upper.st_uid) ||
           (lower.st_gid != kOverflowId && lower.st_gid != upper.st_gid);
}

struct Walker
{
    const ChangeOptions& options;
    ChangeList& out;
    dev_t dev;
    std::size_t& found; // over all layers
    std::string error;  // the visitor's: the walk stops

    bool excluded(const char* name, const std::string& path) const
    {
        for (const auto& pattern : options.exclude) {
            const bool whole = pattern.find('/') != std::string::npos;
            if (::fnmatch(pattern.c_str(), whole ? path.c_str() : name, 0) == 0)
                return true;
        }
        return false;
    }

    bool full()
    {
        if (!error.empty())
            return true;
        if (found < options.limit)
            return false;
        out.truncated = true;
        return true;
    }

    void add(int dir, const char* name, const std::string& path, char kind, const struct stat& st,
             char was = 0)
    {
        Change c;
        c.path = path;
        c.kind = kind;
        c.type = typeOf(st.st_mode);
        c.was = was;
        c.size = S_ISDIR(st.st_mode) ? 0 : std::uint64_t(st.st_size);
        c.mode = st.st_mode & 07777;
        c.mtimeNs = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        ++found;
        if (options.visit)
            error = options.visit(c, dir, name);
        else
            out.changes.push_back(std::move(c));
    }

    // The first of `lowers` that has `name`: its stat, and its index (-1: none has it).
    int findLower(const std::vector<int>& lowers, const char* name, struct stat& st) const
    {
        for (std::size_t i = 0; i < lowers.size(); ++i) {
            if (::fstatat(lowers[i], name, &st, AT_SYMLINK_NOFOLLOW) == 0)
                return int(i);
        }
        return -1;
    }

    // The lower directories merged below an upper directory `name` (uppermost first): each
    // lower's `name` while it is a directory; a non-directory hides the ones below it.
    std::vector<int> lowerDirs(const std::vector<int>& lowers, const char* name) const
    {
        std::vector<int> dirs;
        for (int lower : lowers) {
            const int fd = ::openat(lower, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (fd < 0) {
                if (errno == ENOENT)
                    continue;
                break;
            }
            dirs.push_back(fd);
        }
        return dirs;
    }

    // The entries of the lower directories that the upper's listing did not have: deleted,
    // below a directory that was deleted and made again (opaque).
    void hiddenLowerEntries(const std::vector<int>& lowers, const std::string& path,
                            std::unordered_set<std::string>& seen)
    {
        for (int lower : lowers) {
            const int fd = ::openat(lower, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            DIR* d = fd >= 0 ? ::fdopendir(fd) : nullptr;
            if (!d) {
                if (fd >= 0)
                    ::close(fd);
                continue;
            }
            while (dirent* e = ::readdir(d)) {
                if (std::strcmp(e->d_name, ".") == 0 || std::strcmp(e->d_name, "..") == 0 ||
                    !seen.insert(e->d_name).second)
                    continue;
                const std::string child = join(path, e->d_name);
                struct stat st
                {
                };
                if (excluded(e->d_name, child) ||
                    ::fstatat(lower, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                    continue;
                if (full())
                    break;
                add(lower, e->d_name, child, 'd', st);
            }
            ::closedir(d);
        }
    }

    static std::string join(const std::string& dir, const char* name)
    {
        return dir == "/" ? "/" + std::string(name) : dir + "/" + name;
    }

    // `upper` is an O_PATH descriptor of an upper directory at `path`; `lowers` its merged
    // lower directories (owned: closed here). `hideLower`: below an opaque directory, where the
    // overlay shows nothing of the lowers, so what they have and the upper lacks is deleted.
    void directory(int upper, std::vector<int> lowers, const std::string& path, bool hideLower,
                   std::size_t depth)
    {
        const int fd = ::openat(upper, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR* d = fd >= 0 ? ::fdopendir(fd) : nullptr;
        if (!d) {
            if (fd >= 0)
                ::close(fd);
            out.truncated = true; // unreadable: what is below it is not listed
        }
        std::unordered_set<std::string> seen;
        while (d && !full()) {
            dirent* e = ::readdir(d);
            if (!e)
                break;
            const char* name = e->d_name;
            if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0)
                continue;
            if (hideLower && !lowers.empty()) // what the lowers have is looked for below
                seen.emplace(name);
            const std::string child = join(path, name);
            struct stat st
            {
            };
            if (excluded(name, child) || ::fstatat(upper, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
                st.st_dev != dev)
                continue;
            struct stat lowerSt
            {
            };
            const bool inLower = findLower(lowers, name, lowerSt) >= 0;
            if (isWhiteout(st)) {
                if (inLower)
                    add(upper, name, child, 'd', lowerSt);
                continue;
            }
            if (!S_ISDIR(st.st_mode)) {
                if (!inLower)
                    add(upper, name, child, 'a', st);
                else
                    add(upper, name, child, 'm', st,
                        typeOf(lowerSt.st_mode) != typeOf(st.st_mode) ? typeOf(lowerSt.st_mode)
                                                                      : 0);
                continue;
            }
            const bool opaque = hasOverlayMark(upper, name, "opaque");
            std::vector<int> below;
            if (!inLower) {
                add(upper, name, child, 'a', st);
            } else if (!S_ISDIR(lowerSt.st_mode)) {
                add(upper, name, child, 'm', st, typeOf(lowerSt.st_mode));
            } else {
                // A directory the overlay copied up only because something below it changed
                // is not itself a change; a new mode or owner, or its deletion, is.
                if (opaque || (lowerSt.st_mode & 07777) != (st.st_mode & 07777) ||
                    newOwner(lowerSt, st))
                    add(upper, name, child, 'm', st);
                below = lowerDirs(lowers, name);
            }
            if (depth + 1 >= kMaxDepth) {
                out.truncated = true;
                for (int b : below)
                    ::close(b);
                continue;
            }
            const int sub = ::openat(upper, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub < 0) {
                // Gone since the stat (the sandbox runs on), or out of descriptors.
                out.truncated = out.truncated || errno != ENOENT;
                for (int b : below)
                    ::close(b);
                continue;
            }
            directory(sub, std::move(below), child, hideLower || opaque, depth + 1);
            ::close(sub);
        }
        if (d)
            ::closedir(d);
        if (hideLower && !lowers.empty() && !full())
            hiddenLowerEntries(lowers, path, seen);
        for (int lower : lowers)
            ::close(lower);
    }
};

} // namespace

std::string listChanges(const std::vector<ChangeLayer>& layers, const ChangeOptions& options,
                        ChangeList& out)
{
    std::size_t found = 0;
    for (const auto& layer : layers) {
        struct stat st
        {
        };
        if (::fstat(layer.upper, &st) != 0)
            return std::string("the sandbox's layer for ") + layer.at + ": " + std::strerror(errno);
        Walker w{options, out, st.st_dev, found, {}};
        std::vector<int> lowers;
        for (int lower : layer.lowers) {
            const int fd = ::fcntl(lower, F_DUPFD_CLOEXEC, 3);
            if (fd >= 0)
                lowers.push_back(fd);
        }
        w.directory(layer.upper, std::move(lowers), layer.at, false, 0);
        if (!w.error.empty())
            return w.error;
    }
    return {};
}

namespace {

const char* kindName(char kind)
{
    return kind == 'a' ? "added" : kind == 'd' ? "deleted" : "modified";
}

const char* typeName(char type)
{
    return type == 'f' ? "file" : type == 'd' ? "dir" : type == 'l' ? "symlink" : "other";
}

} // namespace

std::string changesJson(const ChangeList& list)
{
    // Written by hand: the list of 100,000 changes is most of what the request costs.
    std::string out = "{\"ok\":true,\"truncated\":";
    out += list.truncated ? "true" : "false";
    out += ",\"count\":" + std::to_string(list.changes.size()) + "}\n[";
    out.reserve(out.size() + list.changes.size() * 96);
    bool first = true;
    for (const auto& c : list.changes) {
        out += first ? "{\"path\":" : ",{\"path\":";
        first = false;
        appendJsonString(out, c.path);
        out += ",\"kind\":\"";
        out += kindName(c.kind);
        out += "\",\"type\":\"";
        out += typeName(c.type);
        out += "\",\"size\":" + std::to_string(c.size) + ",\"mode\":" + std::to_string(c.mode) +
               ",\"mtimeNs\":" + std::to_string(c.mtimeNs);
        if (c.was) {
            out += ",\"was\":\"";
            out += typeName(c.was);
            out += '"';
        }
        out += '}';
    }
    out += "]\n";
    return out;
}

} // namespace lizard::agent
