#pragma once
// Keys as a terminal sends them. libvterm encodes them (so application cursor and keypad
// modes are its), and its output callback delivers the bytes.

struct VTerm;
class QKeyEvent;

namespace lizard::ui::vt {

// Sends `event` through libvterm's keyboard; false when the key means nothing to a terminal
// (a bare modifier, a key without text).
bool sendKey(VTerm* vt, const QKeyEvent& event);

} // namespace lizard::ui::vt
