#pragma once
// The last bytes a terminal printed, bounded: what a client that attaches (again) is shown
// before the live output, so that it finds the screen it left.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace lizard::sandboxes {

class OutputRing
{
public:
    explicit OutputRing(std::size_t capacity) : m_capacity(capacity) {}

    void append(std::string_view bytes);
    // What it holds, oldest first. Once older output was dropped, it starts after the first
    // newline it holds (when there is one in its first 4 KiB), not in the middle of a line.
    std::string contents() const;
    std::uint64_t totalBytes() const { return m_total; }

private:
    std::size_t m_capacity;
    std::string m_data; // grows to 2 × capacity, then keeps only the last capacity bytes
    std::uint64_t m_total = 0;
};

} // namespace lizard::sandboxes
