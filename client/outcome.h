#pragma once
// Errors are values: every API call completes with an Outcome<T>, a value or an ApiError.

#include "client/types.h"

#include <functional>
#include <utility>
#include <variant>

namespace lizard::client {

struct Unit
{
};

template <class T> class Outcome
{
public:
    Outcome(T value) : m_v(std::in_place_index<0>, std::move(value)) {}
    Outcome(ApiError error) : m_v(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T& value() const { return std::get<0>(m_v); }
    T& value() { return std::get<0>(m_v); }
    const ApiError& error() const { return std::get<1>(m_v); }

private:
    std::variant<T, ApiError> m_v;
};

// What a call runs when it ends, with its value or its error.
template <class T> using Done = std::function<void(Outcome<T>)>;

} // namespace lizard::client
