#pragma once
// Blocking framed I/O on the agent's side of one connection (see frame.h, PROTOCOL.md).

#include <chrono>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace lizard::agent {

class FrameStream
{
public:
    explicit FrameStream(int fd) : m_fd(fd) {}

    int fd() const { return m_fd; }

    // Reads one frame. False on EOF, error or an oversized frame.
    bool readFrame(char& type, std::string& payload);

    // Writes one frame completely. While the socket is not writable, `onStall` (if set) is
    // called once the stall deadline passes; writing then goes on. False if the peer is gone.
    bool writeFrame(char type, const char* data, std::size_t size);
    bool writeJson(const nlohmann::json& value);
    bool writeError(const std::string& code, const std::string& message);

    // Used by exec: a deadline after which onStall runs (the timeout kill) while blocked.
    void setStallHandler(std::chrono::steady_clock::time_point deadline,
                         std::function<void()> onStall);
    void clearStallHandler() { m_onStall = nullptr; }

private:
    bool readExact(char* out, std::size_t size);
    bool waitWritable();

    int m_fd;
    std::chrono::steady_clock::time_point m_stallDeadline;
    std::function<void()> m_onStall;
};

} // namespace lizard::agent
