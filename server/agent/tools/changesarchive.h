#pragma once
// `lizard-agent changes` with "op": "archive" or "file": what a sandbox (or a snapshot's files
// copy) changed, as a download, and one file as its layers show it. Both run inside the
// sandbox's user namespace, like the listing (changeswalk.h), so owners read as the sandbox
// sees them and nothing the sandbox made private is hidden from them; neither follows a
// symbolic link, so nothing outside the layers is read.

#include "agent/tools/changeswalk.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lizard::agent {

// Writes the JSON line {"ok":true}, then the changes as a tar stream in the form of an image
// layer (OCI): added and modified files, directories, links and FIFOs with their modes, owners
// and times, and for each deleted path an empty ".wh.<name>" beside where it was. Returns an
// error text (the stream is then cut short).
std::string archiveChanges(const std::vector<ChangeLayer>& layers,
                           const std::vector<std::string>& exclude, int outFd);

// One file as the overlay shows it: the upper layer over the lowers, whiteouts and opaque
// directories honoured. Writes {"ok":true,"found":true,"size":N} and the bytes, or
// {"ok":true,"found":false,"code":…,"error":…} (NOT_FOUND, NOT_A_FILE, FILE_TOO_LARGE).
// Returns an error text for anything else.
std::string readLayeredFile(const std::vector<ChangeLayer>& layers, const std::string& path,
                            std::uint64_t maxBytes, int outFd);

} // namespace lizard::agent
