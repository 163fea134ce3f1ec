#pragma once
// Runs a host program (mkfs.ext4, e2fsck, resize2fs) with an argv, no shell, and reports
// how it ended with the tail of what it printed.

#include "common/result.h"

#include <string>
#include <vector>

namespace lizard::runtime {

// Ok when the program exits 0 within `timeoutMs`; otherwise Internal `code` with its output.
Status runHostCommand(const std::vector<std::string>& argv, int timeoutMs,
                      const std::string& code = "INTERNAL");

// The first of `names` found executable in /usr/sbin, /sbin, /usr/bin, /bin ("" if none).
std::string findHostProgram(const std::string& name);

} // namespace lizard::runtime
