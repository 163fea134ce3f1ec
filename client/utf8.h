#pragma once
// Strict UTF-8 validation (decides whether writeFile sends text or base64).

#include <QByteArrayView>

namespace lizard::client {

// True when bytes are well-formed UTF-8: no overlong forms, surrogates, or values past U+10FFFF.
bool isValidUtf8(QByteArrayView bytes);

} // namespace lizard::client
