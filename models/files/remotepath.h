#pragma once
// Paths inside a sandbox (always absolute, '/'-separated), independent of the host's rules.

#include <QString>

namespace lizard::models::files {

class RemotePath
{
public:
    // "/a//b/../c/" -> "/a/c"; relative paths are taken from "/"; empty -> "/".
    static QString clean(const QString& path);
    static QString fileName(const QString& path); // "/a/b" -> "b"; "/" -> "/"
    static QString parentOf(const QString& path); // "/a/b" -> "/a"; "/" -> "/"
    static QString join(const QString& dir, const QString& name);
    static bool isInside(const QString& path, const QString& dir); // strictly below dir
    // A name for a new file or folder: non-empty, no '/', no NUL, not "." or "..". Empty when
    // valid, else why not.
    static QString checkName(const QString& name);
};

} // namespace lizard::models::files
