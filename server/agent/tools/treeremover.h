#pragma once
// Recursive removal that does not follow symlinks nor cross mount points, relative to a
// directory descriptor (used by `lizard-agent remove` inside the user namespace).

#include <string>

namespace lizard::agent {

std::string removeTreeAt(int parentFd, const std::string& name);

} // namespace lizard::agent
