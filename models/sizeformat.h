#pragma once
// Text for sizes shown in the snapshot and volume tables.

#include <QString>

namespace lizard::models {

// "512 B", "1.5 KB", "100 MB", "2.3 GB" (1024-based).
QString formatBytes(qint64 bytes);

} // namespace lizard::models
