#pragma once
// `lizard-agent changes`: what a sandbox added, modified and deleted against its template, read
// from its overlays' upper directories (the upper holds exactly what the sandbox wrote: new and
// copied-up files, whiteouts for deletions, opaque directories for a directory deleted and made
// again). Runs inside the sandbox's user namespace, as `usage` does (usagewalk.h), so that a
// directory the sandbox made 0700 hides nothing from it.

#include <cstdint>
#include <functional>
#include <string>
#include <sys/stat.h>
#include <vector>

namespace lizard::agent {

// One overlay: its upper directory, its lower ones (uppermost first), and where it is mounted in
// the sandbox ("/", "/usr", "/usr/local"). Directories are open O_PATH descriptors.
struct ChangeLayer
{
    int upper = -1;
    std::vector<int> lowers;
    std::string at;
};

struct Change;

// Called for each change as the walk finds it, instead of keeping it in the list: `dir` is the
// O_PATH descriptor of the layer directory that holds it, `name` its name there (for a
// deletion: the whiteout's, or the lower entry's the overlay hides). A directory comes before
// what is below it. A non-empty answer (an error text) stops the walk and is its result.
using ChangeVisitor = std::function<std::string(const Change&, int dir, const char* name)>;

struct ChangeOptions
{
    // fnmatch(3) patterns: one without a slash is matched against each path component (so
    // "__pycache__" drops every such directory with what is in it), one with a slash against
    // the whole path ("/root/.cache/*").
    std::vector<std::string> exclude;
    std::size_t limit = 200000; // entries listed at most (then truncated)
    ChangeVisitor visit;        // set: each change goes to it, and the list stays empty
};

struct Change
{
    std::string path;
    char kind = 'a'; // 'a'dded, 'm'odified, 'd'eleted
    char type = 'f'; // 'f'ile, 'd'irectory, 'l'ink, 'o'ther, of what is there now (deleted:
                     // of what the template had)
    char was = 0;    // modified into another type: the template's type, else 0
    std::uint64_t size = 0;
    unsigned mode = 0;        // permission bits
    std::int64_t mtimeNs = 0; // its modification time (deleted: the template's)
};

struct ChangeList
{
    std::vector<Change> changes; // in walk order: a directory before what is below it
    bool truncated = false;
};

// Walks the layers; returns an error text (empty on success).
std::string listChanges(const std::vector<ChangeLayer>& layers, const ChangeOptions& options,
                        ChangeList& out);

// The list as the launcher prints it: a JSON line {"ok":true,"truncated":false,"count":N},
// then a line with the JSON array of the API's change objects ({"path", "kind", "type",
// "size", "mode", "mtimeNs", "was"?}), which lizard-local passes on without parsing it.
std::string changesJson(const ChangeList& list);

// The overlay's own marks on `name` in a layer directory (mounted with userxattr:
// user.overlay.<mark>, such as "opaque").
bool hasOverlayMark(int dirFd, const char* name, const char* mark);
// A deletion in an upper layer: a 0:0 character device. (Kernels from 6.7 also know whiteouts
// marked by an xattr, but only in a lower layer that is itself an overlay's upper, which no
// sandbox layer is.)
bool isWhiteout(const struct stat& st);

} // namespace lizard::agent
