#pragma once
// The code runner's artefact (resources/runner/bundle.py), embedded at build time: what travels
// to a sandbox as `python3 -c <source> <base64 of a JSON request>` (resources/runner/PROTOCOL.md).

#include <string>
#include <vector>

namespace lizard::sandboxes {

const char* runnerSource();

// Whether argv is ["python3", "-c", runnerSource(), <one argument>].
bool isShippedRunner(const std::vector<std::string>& argv);

} // namespace lizard::sandboxes
