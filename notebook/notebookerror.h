#pragma once
// Errors are values: what went wrong with a notebook file, said so a person can act on it.

#include <QString>
#include <optional>
#include <utility>
#include <variant>

namespace lizard::notebook {

struct NotebookError
{
    QString file;  // the path involved (may be empty for in-memory data)
    QString where; // location inside the file: "line 3, column 7" or "cells[2].outputs[0]"
    QString what;  // the problem

    // "<file>: <where>: <what>", leaving out empty parts.
    QString message() const;
};

// Either a value or a NotebookError.
template <class T> class Expected
{
public:
    Expected(T value) : m_v(std::in_place_index<0>, std::move(value)) {}
    Expected(NotebookError error) : m_v(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return m_v.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T& value() const { return std::get<0>(m_v); }
    T& value() { return std::get<0>(m_v); }
    const NotebookError& error() const { return std::get<1>(m_v); }

private:
    std::variant<T, NotebookError> m_v;
};

// For operations with no value: empty on success.
using MaybeError = std::optional<NotebookError>;

} // namespace lizard::notebook
