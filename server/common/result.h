#pragma once
// Errors are values in the server: fallible functions return Result<T>; exceptions never
// cross module boundaries or asio handlers.

#include <string>
#include <utility>
#include <variant>

namespace lizard {

// An API-level error: HTTP status, UPPER_SNAKE code and a human message.
struct Error
{
    int status = 500;
    std::string code = "INTERNAL";
    std::string message;
};

template <class T> class Result
{
public:
    Result(T value) : m_v(std::move(value)) {}
    Result(Error error) : m_v(std::move(error)) {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(m_v); }
    const T& value() const { return std::get<0>(m_v); }
    T& operator*() { return value(); }
    T* operator->() { return &value(); }
    const Error& error() const { return std::get<1>(m_v); }

private:
    std::variant<T, Error> m_v;
};

struct Unit
{
};
using Status = Result<Unit>;
inline Status okStatus()
{
    return Unit{};
}

} // namespace lizard
