#pragma once
// The code runner's artefact (resources/runner/bundle.py), embedded at build time: what travels
// to a sandbox as `python3 -c <source> <base64 of a JSON request>` (resources/runner/PROTOCOL.md).

namespace lizard::sandboxes {

const char* runnerSource();

} // namespace lizard::sandboxes
