#pragma once
// Frame format shared by lizard-agent and AgentClient (see PROTOCOL.md):
// type (1 byte), length (u32 big-endian), payload.

#include <cstddef>
#include <cstdint>

namespace lizard::agent {

inline constexpr char kFrameJson = 'J';
inline constexpr char kFrameStdout = 'O';
inline constexpr char kFrameStderr = 'E';
inline constexpr char kFrameData = 'D';
inline constexpr char kFrameDataEnd = 'Z';

inline constexpr std::size_t kFrameHeaderSize = 5;
inline constexpr std::uint32_t kMaxFramePayload = 1u << 20;
// A JSON answer from the agent may be larger: the listing of a folder with tens of thousands of
// entries (files panel). The reader still bounds what it allocates.
inline constexpr std::uint32_t kMaxJsonAnswerPayload = 64u << 20;

inline void encodeFrameHeader(unsigned char* out, char type, std::uint32_t length)
{
    out[0] = static_cast<unsigned char>(type);
    out[1] = static_cast<unsigned char>(length >> 24);
    out[2] = static_cast<unsigned char>(length >> 16);
    out[3] = static_cast<unsigned char>(length >> 8);
    out[4] = static_cast<unsigned char>(length);
}

inline std::uint32_t decodeFrameLength(const unsigned char* header)
{
    return (std::uint32_t(header[1]) << 24) | (std::uint32_t(header[2]) << 16) |
           (std::uint32_t(header[3]) << 8) | std::uint32_t(header[4]);
}

} // namespace lizard::agent
