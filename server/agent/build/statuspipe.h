#pragma once
// Line messages from the launcher's children to the launcher: "P <pid>", "R" (ready),
// "E <message>" (failed).

#include <string>

namespace lizard::agent {

void sendStatus(int fd, const std::string& line);

// Reads one line; false on EOF or when timeoutMs passes.
bool readStatus(int fd, std::string& line, int timeoutMs);

} // namespace lizard::agent
