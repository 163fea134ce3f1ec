#include "ui/terminal/terminalkeys.h"

#include <QKeyEvent>
#include <vterm.h>

namespace lizard::ui::vt {

VTermModifier modifiers(Qt::KeyboardModifiers mods)
{
    int out = VTERM_MOD_NONE;
    if (mods & Qt::ShiftModifier)
        out |= VTERM_MOD_SHIFT;
    if (mods & Qt::AltModifier)
        out |= VTERM_MOD_ALT;
    if (mods & Qt::ControlModifier)
        out |= VTERM_MOD_CTRL;
    return VTermModifier(out);
}

namespace {

VTermKey specialKey(int key, bool keypad)
{
    switch (key) {
    case Qt::Key_Return:
        return VTERM_KEY_ENTER;
    case Qt::Key_Enter:
        return keypad ? VTERM_KEY_KP_ENTER : VTERM_KEY_ENTER;
    case Qt::Key_Tab:
    case Qt::Key_Backtab:
        return VTERM_KEY_TAB;
    case Qt::Key_Backspace:
        return VTERM_KEY_BACKSPACE;
    case Qt::Key_Escape:
        return VTERM_KEY_ESCAPE;
    case Qt::Key_Up:
        return VTERM_KEY_UP;
    case Qt::Key_Down:
        return VTERM_KEY_DOWN;
    case Qt::Key_Left:
        return VTERM_KEY_LEFT;
    case Qt::Key_Right:
        return VTERM_KEY_RIGHT;
    case Qt::Key_Insert:
        return VTERM_KEY_INS;
    case Qt::Key_Delete:
        return VTERM_KEY_DEL;
    case Qt::Key_Home:
        return VTERM_KEY_HOME;
    case Qt::Key_End:
        return VTERM_KEY_END;
    case Qt::Key_PageUp:
        return VTERM_KEY_PAGEUP;
    case Qt::Key_PageDown:
        return VTERM_KEY_PAGEDOWN;
    default:
        break;
    }
    if (key >= Qt::Key_F1 && key <= Qt::Key_F35)
        return VTermKey(VTERM_KEY_FUNCTION(key - Qt::Key_F1 + 1));
    return VTERM_KEY_NONE;
}

// Ctrl with a key whose legacy control code libvterm would send as CSI u instead (Ctrl+[ is
// Escape to vi, Ctrl+I is Tab to readline): the code xterm sends, or -1.
int legacyControl(int key)
{
    switch (key) {
    case Qt::Key_I:
        return 0x09;
    case Qt::Key_J:
        return 0x0a;
    case Qt::Key_M:
        return 0x0d;
    case Qt::Key_BracketLeft:
        return 0x1b;
    case Qt::Key_Backslash:
        return 0x1c;
    case Qt::Key_BracketRight:
        return 0x1d;
    case Qt::Key_AsciiCircum:
    case Qt::Key_6:
        return 0x1e;
    case Qt::Key_Underscore:
    case Qt::Key_Slash:
        return 0x1f;
    case Qt::Key_At:
    case Qt::Key_2:
    case Qt::Key_Space:
        return 0x00;
    case Qt::Key_Question:
        return 0x7f;
    default:
        return -1;
    }
}

} // namespace

bool sendKey(VTerm* vt, const QKeyEvent& event)
{
    const int key = event.key();
    const Qt::KeyboardModifiers qtMods = event.modifiers();
    VTermModifier mod = modifiers(qtMods);
    if (const VTermKey special = specialKey(key, qtMods & Qt::KeypadModifier)) {
        if (key == Qt::Key_Backtab)
            mod = VTermModifier(mod | VTERM_MOD_SHIFT);
        vterm_keyboard_key(vt, special, mod);
        return true;
    }
    if (mod & VTERM_MOD_CTRL) {
        if (const int code = legacyControl(key); code >= 0) {
            if (mod & VTERM_MOD_ALT)
                vterm_keyboard_unichar(vt, 0x1b, VTERM_MOD_NONE);
            vterm_keyboard_unichar(vt, uint32_t(code), VTERM_MOD_NONE);
            return true;
        }
        if (key >= Qt::Key_A && key <= Qt::Key_Z) {
            // libvterm wants the lower-case letter and turns it into its control code.
            vterm_keyboard_unichar(vt, uint32_t('a' + (key - Qt::Key_A)),
                                   VTermModifier(mod & ~VTERM_MOD_SHIFT));
            return true;
        }
    }
    QString text = event.text();
    if (text.isEmpty() && (mod & VTERM_MOD_ALT) && key >= Qt::Key_Space && key < 0x7f)
        text = QChar(key).toLower();
    if (text.isEmpty())
        return false;
    for (const char32_t ch : text.toUcs4()) {
        if (ch < 0x20 || ch == 0x7f) {
            if (mod & VTERM_MOD_ALT)
                vterm_keyboard_unichar(vt, 0x1b, VTERM_MOD_NONE);
            vterm_keyboard_unichar(vt, ch, VTERM_MOD_NONE);
        } else {
            vterm_keyboard_unichar(vt, ch, VTermModifier(mod & ~VTERM_MOD_CTRL));
        }
    }
    return true;
}

} // namespace lizard::ui::vt
