// LinuxRuntime: what a sandbox changed against its template (lizard-agent changes, in the
// sandbox's user namespace) and the template's own version of one file.
#include "runtime/agenttool.h"
#include "runtime/linuxruntime.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <utility>

namespace lizard::runtime {

namespace {

// The walk of 100,000 changed files takes a fraction of a second; a layer many times that, or
// a slow disk, gets this long before the answer is an error.
constexpr int kChangesTimeoutMs = 60000;
// An archive is read by a client at its own pace; a day bounds a reader that never finishes.
constexpr int kArchiveTimeoutMs = 24 * 3600 * 1000;

// A sandbox's three overlays: its upper directory (in its own directory), the template's lower
// ones (uppermost first) and where it is mounted; the deepest mount point last.
struct Overlay
{
    const char* upper;
    std::vector<std::string> lowers;
    std::string at;
};

std::vector<Overlay> overlaysOf(const std::string& templateDir, bool desktop)
{
    return {{"upper", {templateDir + "/root"}, "/"},
            {"usr-upper", {templateDir + "/usr-dirs", "/usr"}, "/usr"},
            {"local-upper",
             {templateDir + (desktop ? "/usr-local-desktop" : "/usr-local")},
             "/usr/local"}};
}

// The overlay `path` is in, and the path below its mount point ("" for the mount point).
std::pair<Overlay, std::string> placeOf(const std::string& templateDir, bool desktop,
                                        const std::string& path)
{
    const auto all = overlaysOf(templateDir, desktop);
    for (auto o = all.rbegin(); o != all.rend(); ++o) {
        if (o->at == "/")
            break;
        if (path.compare(0, o->at.size(), o->at) == 0 &&
            (path.size() == o->at.size() || path[o->at.size()] == '/'))
            return {*o, path.substr(o->at.size())};
    }
    return {all.front(), path};
}

} // namespace

Result<nlohmann::json> LinuxRuntime::changesConfig(const std::string& id, const ChangesQuery& query)
{
    if (!validSandboxId(id) || (!query.filesCopy.empty() && !validSandboxId(query.filesCopy)))
        return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT", "invalid sandbox id"};
    const std::string dir = query.filesCopy.empty() ? sandboxDir(id) : filesDir(query.filesCopy);
    nlohmann::json layers = nlohmann::json::array();
    for (const auto& o : overlaysOf(templateDir(), query.desktop)) {
        // A sandbox from before /usr was copy-on-write has no usr-upper: nothing changed there.
        if (::access((dir + "/" + o.upper).c_str(), F_OK) != 0)
            continue;
        layers.push_back({{"upper", dir + "/" + o.upper}, {"lowers", o.lowers}, {"at", o.at}});
    }
    if (layers.empty())
        return Error{ErrorKind::NotFound, "NOT_FOUND", "sandbox " + id + " has no files here"};
    return nlohmann::json{{"mode", "changes"},    {"idMap", m_ids.toJson()},
                          {"layers", layers},     {"exclude", query.exclude},
                          {"limit", query.limit}, {"timeoutMs", kChangesTimeoutMs}};
}

Result<ChangesListing> LinuxRuntime::listChanges(const std::string& id, const ChangesQuery& query)
{
    auto config = changesConfig(id, query);
    if (!config)
        return config.error();
    ChangesListing out;
    auto listed = runAgentTool(m_agentPath, "changes", *config, kChangesTimeoutMs + 5000, {},
                               &out.changesJson);
    if (!listed)
        return Error{ErrorKind::Internal, "CHANGES_FAILED",
                     "listing the sandbox's changes failed: " + listed.error().message};
    while (!out.changesJson.empty() && out.changesJson.back() == '\n')
        out.changesJson.pop_back();
    if (out.changesJson.empty() || out.changesJson.front() != '[' || out.changesJson.back() != ']')
        return Error{ErrorKind::Internal, "CHANGES_FAILED",
                     "listing the sandbox's changes failed: the list was cut short"};
    out.truncated = listed->value("truncated", false);
    out.count = listed->value("count", std::size_t(0));
    return out;
}

Result<std::string> LinuxRuntime::layeredFile(const std::string& id, const ChangesQuery& query,
                                              const std::string& path, std::size_t maxBytes)
{
    auto config = changesConfig(id, query);
    if (!config)
        return config.error();
    (*config)["op"] = "file";
    (*config)["path"] = path;
    (*config)["maxBytes"] = maxBytes;
    std::string data;
    auto read = runAgentTool(m_agentPath, "changes", *config, kChangesTimeoutMs, {}, &data);
    if (!read)
        return Error{ErrorKind::Internal, "CHANGES_FAILED",
                     "reading " + path + " failed: " + read.error().message};
    if (!read->value("found", false)) {
        const std::string code = read->value("code", std::string("NOT_FOUND"));
        return Error{code == "NOT_FOUND" ? ErrorKind::NotFound : ErrorKind::InvalidArgument, code,
                     read->value("error", path + " cannot be read")};
    }
    if (data.size() != read->value("size", std::size_t(0)))
        return Error{ErrorKind::Internal, "CHANGES_FAILED", "reading " + path + " was cut short"};
    return data;
}

Result<ToolStream> LinuxRuntime::changesArchive(const std::string& id, const ChangesQuery& query)
{
    auto config = changesConfig(id, query);
    if (!config)
        return config.error();
    (*config)["op"] = "archive";
    // The stream goes as fast as its reader takes it: the bound is the reader's to keep.
    (*config)["timeoutMs"] = kArchiveTimeoutMs;
    auto spawned = spawnAgentTool(m_agentPath, "changes", *config);
    if (!spawned)
        return spawned.error();
    return ToolStream{spawned->pid, spawned->out};
}

Result<std::string> LinuxRuntime::templateFile(bool desktop, const std::string& path,
                                               std::size_t maxBytes)
{
    if (path.empty() || path[0] != '/' || path.find('\0') != std::string::npos)
        return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT",
                     "path must be absolute: " + path};
    const auto [overlay, rest] = placeOf(templateDir(), desktop, path);
    for (const auto& lower : overlay.lowers) {
        const int base = ::open(lower.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (base < 0)
            continue;
        // Beneath the layer and through no symbolic link: the template's links point into
        // the sandbox, which is not this host.
        open_how how{};
        how.flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC;
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
        const std::string rel = rest.empty() ? "." : "." + rest;
        const int fd = int(::syscall(SYS_openat2, base, rel.c_str(), &how, sizeof how));
        const int err = errno;
        ::close(base);
        if (fd < 0) {
            if (err == ENOENT)
                continue; // a lower layer below may have it
            if (err == EXDEV)
                return Error{ErrorKind::InvalidArgument, "INVALID_ARGUMENT",
                             path + " leads out of the template"};
            if (err == ELOOP)
                return Error{ErrorKind::InvalidArgument, "NOT_A_FILE",
                             path + " is a symbolic link (or goes through one) in the template"};
            return Error{ErrorKind::Internal, "INTERNAL",
                         "opening the template's " + path + ": " + std::strerror(err)};
        }
        struct stat st
        {
        };
        std::string data;
        if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            ::close(fd);
            return Error{ErrorKind::InvalidArgument, "NOT_A_FILE",
                         path + " is not a regular file in the template"};
        }
        if (std::size_t(st.st_size) > maxBytes) {
            ::close(fd);
            return Error{ErrorKind::InvalidArgument, "FILE_TOO_LARGE",
                         path + " has " + std::to_string(st.st_size) +
                             " bytes in the template; at most " + std::to_string(maxBytes) +
                             " are shown"};
        }
        data.resize(std::size_t(st.st_size));
        std::size_t got = 0;
        while (got < data.size()) {
            const ssize_t n = ::read(fd, data.data() + got, data.size() - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            got += std::size_t(n);
        }
        ::close(fd);
        data.resize(got);
        return data;
    }
    return Error{ErrorKind::NotFound, "NOT_IN_TEMPLATE", path + " is not in the template"};
}

} // namespace lizard::runtime
