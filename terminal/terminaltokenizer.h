#pragma once
// A program's output cut into what libvterm 0.1's parser acts on, byte for byte as that parser
// reads it: runs of text, control characters, and whole escape sequences, control sequences
// (CSI) and strings (OSC, DCS). The screen draws plain text itself and hands libvterm the rest,
// so it must know exactly where libvterm's parser stands.
//
// A sequence is handed over whole, once its last byte arrives: one split across two writes
// reaches libvterm as one write, and a control character inside a sequence (which libvterm
// carries out at once) comes first, on its own. That also keeps libvterm 0.1 off its faults
// with split input (a string's first part is dropped, a UTF-8 character split across writes
// shows as two U+FFFD) and with a CSI of more than 16 parameters (its parser writes past its
// array): such a CSI, or any sequence longer than kMaxSequence (a string longer than kMaxString),
// is dropped, as libvterm drops one it does not understand; the control characters inside are
// still carried out.

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace lizard::terminal {

class TerminalTokenizer
{
public:
    static constexpr size_t kMaxSequence = 256;
    static constexpr size_t kMaxString = 4096;
    // A text run that ends inside a UTF-8 character waits for the rest when it is this short;
    // a longer one goes without its last, incomplete character, which waits alone.
    static constexpr size_t kMaxTextCarry = 4096;
    static constexpr int kMaxArgs = 16; // libvterm 0.1's CSI_ARGS_MAX

    struct Token
    {
        enum Kind {
            Text,    // printable bytes in the ground state (UTF-8 included)
            Control, // a C0 control that libvterm carries out (not NUL, ESC, CAN, SUB)
            Escape,  // ESC, intermediates, final byte (ESC D and the like are C1 controls)
            Csi,     // a whole control sequence, parameters parsed as libvterm does
            String,  // a whole OSC or DCS string with its terminator
        };
        Kind kind = Text;
        std::string_view bytes; // what libvterm is to be given
        // Escape and Csi
        char final = 0;
        std::string_view intermed;
        // Csi
        std::string_view leader;
        std::array<long, kMaxArgs> args = {}; // the first argCount are the token's
        int argCount = 0;
    };

    // The next write's bytes; they stay valid until the tokens are taken.
    void begin(const char* bytes, size_t length);
    bool next(Token& token);
    // Everything held back is dropped (a reset).
    void clear();
    // Held text (a run waiting for the end of its last character) is given as it is, for a
    // resize that must not wait for the rest.
    bool takeHeldText(std::string& out);

private:
    enum State { Ground, Esc, CsiLeader, CsiArgs, CsiIntermed, Str, EscInStr };

    bool textToken(Token& token);
    bool wholeCsi(Token& token);
    void startSequence();
    void dropSequence();
    bool escapeByte(unsigned char c, Token& token);
    bool csiByte(unsigned char c, Token& token);
    void append(unsigned char c, size_t limit);

    const char* m_data = nullptr;
    size_t m_size = 0;
    size_t m_pos = 0;
    std::string m_joined;   // held text + the new bytes, when text was held
    std::string m_heldText; // a text run waiting for the rest of its last character
    State m_state = Ground;
    std::string m_seq;      // the sequence so far, as libvterm is to be given it
    std::string m_intermed; // as libvterm keeps them (at most 15)
    std::string m_leader;
    std::array<long, kMaxArgs> m_args = {};
    int m_argi = 0;
    bool m_dropping = false; // the sequence in progress is too long or too many parameters
};

} // namespace lizard::terminal
