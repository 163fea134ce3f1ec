#pragma once
// One file's change as a git-style unified diff (`diff --git a/p b/p`, 3 lines of context),
// byte-exact: the texts are compared as Latin-1, which maps every byte to one character, so a
// file in any encoding comes back as it was; a last line without a newline is marked as GNU
// diff marks it. A side that is absent is /dev/null (a new or a deleted file); a side with a
// NUL byte in its first 8000 bytes makes it "Binary files ... differ". `patch -p1` in / or
// `git apply` applies the result. Paths are absolute; "a/" and "b/" replace the leading slash.

#include <QByteArray>
#include <QString>
#include <optional>

namespace lizard::models::changes {

// `mode`: the file's permission bits (0755 gives mode 100755, anything else 100644).
QByteArray unifiedDiff(const QString& path, const std::optional<QByteArray>& before,
                       const std::optional<QByteArray>& after, int mode = 0644);

} // namespace lizard::models::changes
