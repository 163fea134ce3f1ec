#pragma once
// Keys as a terminal sends them. libvterm encodes them (so application cursor and keypad
// modes are its), and its output callback delivers the bytes.

#include <Qt>
#include <vterm_keycodes.h>

struct VTerm;
class QKeyEvent;

namespace lizard::ui::vt {

// Sends `event` through libvterm's keyboard; false when the key means nothing to a terminal
// (a bare modifier, a key without text).
bool sendKey(VTerm* vt, const QKeyEvent& event);
// Shift, Alt and Ctrl as libvterm names them (keys and mouse reports alike).
VTermModifier modifiers(Qt::KeyboardModifiers mods);

} // namespace lizard::ui::vt
