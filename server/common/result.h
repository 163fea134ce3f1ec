#pragma once
// Errors are values in the server: fallible functions return Result<T>; exceptions never
// cross module boundaries or asio handlers.

#include <string>
#include <utility>
#include <variant>

namespace lizard {

// What kind of failure an error is, in the server's own terms. Only the HTTP layer turns a
// kind into a status (http/responses.h, httpStatus), so code below it never speaks HTTP.
enum class ErrorKind {
    Internal,            // a fault of lizard-local or its host
    InvalidArgument,     // the request asks for something malformed or impossible
    Unauthenticated,     // no valid API key
    Forbidden,           // a valid key or sandbox that may not do this
    NotFound,            // no such object (or no longer)
    Conflict,            // the object's state forbids it now (paused, attached, exists)
    LimitReached,        // a cap on things at once was reached; retry later
    NotImplemented,      // a feature this lizard-local does not offer
    Unreachable,         // a sandbox's agent refuses or drops the connection
    Unavailable,         // a service or host feature is missing or stopping
    Timeout,             // something did not answer within its deadline
    InsufficientStorage, // the data directory's disk is too full
};

// An error: its kind, an UPPER_SNAKE code and a human message.
struct Error
{
    ErrorKind kind = ErrorKind::Internal;
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
