#include "agent/tools/changesarchive.h"

#include "agent/tools/tarwriter.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace lizard::agent {

namespace {

// A deletion as image layers mark it: ".wh.<name>" in the directory that held it.
std::string whiteoutPath(const std::string& rel)
{
    const auto slash = rel.rfind('/');
    return slash == std::string::npos ? ".wh." + rel
                                      : rel.substr(0, slash + 1) + ".wh." + rel.substr(slash + 1);
}

// One change into the archive, read from where the walk found it. What is gone since the
// walk saw it (the sandbox runs on) is left out, as tar leaves out a file removed under it.
std::string archiveOne(TarWriter& tar, const Change& c, int dir, const char* name)
{
    const std::string rel = c.path.substr(1);
    if (c.kind == 'd')
        return tar.emptyFile(whiteoutPath(rel), 0644, c.mtimeNs / 1000000000);
    struct stat st
    {
    };
    if (::fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return {};
    if (S_ISDIR(st.st_mode))
        return tar.directory(rel, st);
    if (S_ISLNK(st.st_mode)) {
        char target[4096];
        const ssize_t n = ::readlinkat(dir, name, target, sizeof target);
        return n < 0 ? std::string() : tar.symlink(rel, st, std::string(target, std::size_t(n)));
    }
    if (S_ISFIFO(st.st_mode))
        return tar.fifo(rel, st);
    if (!S_ISREG(st.st_mode))
        return {}; // a socket or a device: nothing a tar can carry
    const int fd = ::openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return {};
    struct stat now
    {
    };
    std::string e;
    if (::fstat(fd, &now) == 0 && S_ISREG(now.st_mode))
        e = tar.file(rel, now, fd, std::uint64_t(now.st_size));
    ::close(fd);
    return e;
}

// The layer `path` is in (the deepest mount point that holds it) and the path below it.
const ChangeLayer* layerOf(const std::vector<ChangeLayer>& layers, const std::string& path,
                           std::string& rest)
{
    const ChangeLayer* best = nullptr;
    for (const auto& l : layers) {
        const bool root = l.at == "/";
        if (root || (path.compare(0, l.at.size(), l.at) == 0 &&
                     (path.size() == l.at.size() || path[l.at.size()] == '/'))) {
            if (!best || l.at.size() > best->at.size()) {
                best = &l;
                rest = root ? path : path.substr(l.at.size());
            }
        }
    }
    return best;
}

std::string notFound(int outFd, const char* code, const std::string& error)
{
    return writeAll(
        outFd,
        nlohmann::json{{"ok", true}, {"found", false}, {"code", code}, {"error", error}}.dump() +
            "\n");
}

// The directories a lookup is in: the upper's (-1 once the upper has no such directory) and
// the lowers' merged below it, uppermost first. Owns its descriptors.
struct Place
{
    int upper = -1;
    std::vector<int> lowers;
    ~Place()
    {
        if (upper >= 0)
            ::close(upper);
        for (int fd : lowers)
            ::close(fd);
    }
};

// The lowers' directories `name`, as the overlay merges them: a lower without it is skipped,
// one where it is not a directory hides the ones below.
std::vector<int> descendLowers(const std::vector<int>& lowers, const char* name)
{
    std::vector<int> next;
    for (int lower : lowers) {
        const int fd = ::openat(lower, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0) {
            next.push_back(fd);
            continue;
        }
        if (errno != ENOENT)
            break;
    }
    return next;
}

} // namespace

std::string archiveChanges(const std::vector<ChangeLayer>& layers,
                           const std::vector<std::string>& exclude, int outFd)
{
    if (auto e = writeAll(outFd, "{\"ok\":true}\n"); !e.empty())
        return e;
    TarWriter tar(outFd);
    ChangeOptions options;
    options.exclude = exclude;
    options.limit = std::size_t(-1);
    options.visit = [&tar](const Change& c, int dir, const char* name) {
        return archiveOne(tar, c, dir, name);
    };
    ChangeList unused;
    if (auto e = listChanges(layers, options, unused); !e.empty())
        return e;
    return tar.finish();
}

std::string readLayeredFile(const std::vector<ChangeLayer>& layers, const std::string& path,
                            std::uint64_t maxBytes, int outFd)
{
    std::string rest;
    const ChangeLayer* layer = layerOf(layers, path, rest);
    if (!layer || path.empty() || path[0] != '/')
        return notFound(outFd, "NOT_FOUND", path + " is not in these files");
    std::vector<std::string> parts;
    for (std::size_t from = 0; from < rest.size();) {
        const std::size_t slash = std::min(rest.find('/', from), rest.size());
        if (slash > from)
            parts.push_back(rest.substr(from, slash - from));
        from = slash + 1;
    }
    if (parts.empty())
        return notFound(outFd, "NOT_A_FILE", path + " is a folder");
    Place at;
    at.upper = ::fcntl(layer->upper, F_DUPFD_CLOEXEC, 3);
    for (int lower : layer->lowers)
        at.lowers.push_back(::fcntl(lower, F_DUPFD_CLOEXEC, 3));
    int fileDir = -1; // the directory that holds the file, once found
    for (std::size_t i = 0; i < parts.size() && fileDir < 0; ++i) {
        const char* name = parts[i].c_str();
        const bool last = i + 1 == parts.size();
        struct stat st
        {
        };
        if (at.upper >= 0 && ::fstatat(at.upper, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
            if (isWhiteout(st))
                return notFound(outFd, "NOT_FOUND", path + " was deleted");
            if (last) {
                fileDir = at.upper;
                break;
            }
            if (!S_ISDIR(st.st_mode))
                return notFound(outFd, "NOT_A_FILE",
                                path + " goes through a link or a file (/" + parts[i] + ")");
            const bool opaque = hasOverlayMark(at.upper, name, "opaque");
            std::vector<int> lowers = opaque ? std::vector<int>() : descendLowers(at.lowers, name);
            const int sub = ::openat(at.upper, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            ::close(at.upper);
            at.upper = sub;
            for (int fd : at.lowers)
                ::close(fd);
            at.lowers = std::move(lowers);
            continue;
        }
        if (at.upper >= 0 && errno != ENOENT)
            return std::string("reading ") + path + ": " + std::strerror(errno);
        if (at.upper >= 0) {
            ::close(at.upper);
            at.upper = -1;
        }
        // Only the lowers have it, if any does.
        if (last) {
            for (int lower : at.lowers) {
                if (::fstatat(lower, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
                    fileDir = lower;
                    break;
                }
            }
            if (fileDir < 0)
                return notFound(outFd, "NOT_FOUND", path + " is not there");
            break;
        }
        std::vector<int> lowers = descendLowers(at.lowers, name);
        if (lowers.empty())
            return notFound(outFd, "NOT_FOUND", path + " is not there");
        for (int fd : at.lowers)
            ::close(fd);
        at.lowers = std::move(lowers);
    }
    const int fd = ::openat(fileDir, parts.back().c_str(),
                            O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return errno == ELOOP ? notFound(outFd, "NOT_A_FILE", path + " is a link")
                              : std::string("opening ") + path + ": " + std::strerror(errno);
    struct stat st
    {
    };
    std::string e;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        e = notFound(outFd, "NOT_A_FILE", path + " is not a regular file");
    } else if (std::uint64_t(st.st_size) > maxBytes) {
        e = notFound(outFd, "FILE_TOO_LARGE",
                     path + " has " + std::to_string(st.st_size) + " bytes; at most " +
                         std::to_string(maxBytes) + " are shown");
    } else {
        std::string data(std::size_t(st.st_size), '\0');
        std::size_t got = 0;
        while (got < data.size()) {
            const ssize_t n = ::read(fd, data.data() + got, data.size() - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            got += std::size_t(n);
        }
        data.resize(got);
        e = writeAll(outFd,
                     nlohmann::json{{"ok", true}, {"found", true}, {"size", got}}.dump() + "\n");
        if (e.empty())
            e = writeAll(outFd, data);
    }
    ::close(fd);
    return e;
}

} // namespace lizard::agent
