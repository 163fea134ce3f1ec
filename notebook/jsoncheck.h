#pragma once
// Type-checked access to parsed .ipynb JSON that remembers the first problem and where it was
// (as a path like "cells[2].outputs[0].text"), so a broken file gets a precise message.

#include "notebook/notebookerror.h"

#include <QStringList>
#include <nlohmann/json.hpp>

namespace lizard::notebook {

class JsonCheck
{
public:
    explicit JsonCheck(QString file) : m_file(std::move(file)) {}

    // Records the problem (the first one wins) and returns false.
    bool fail(const QString& where, const QString& what);
    bool failed() const { return m_failed; }
    NotebookError error() const { return m_error; }

    // The member key of obj, or nullptr; a missing required member is an error.
    const nlohmann::json* member(const nlohmann::json& obj, const char* key, const QString& where,
                                 bool required = true);
    bool isObject(const nlohmann::json& v, const QString& where);
    bool isArray(const nlohmann::json& v, const QString& where);
    bool string(const nlohmann::json& v, const QString& where, QString* out);
    // nbformat's multiline string: a string or a list of strings to be joined.
    bool multiline(const nlohmann::json& v, const QString& where, QString* out);
    bool stringList(const nlohmann::json& v, const QString& where, QStringList* out);
    bool optionalInt(const nlohmann::json& v, const QString& where, std::optional<int>* out);

    static QString describe(const nlohmann::json& v); // "a string", "a list", ...
    static QString child(const QString& where, const char* key);
    static QString item(const QString& where, std::size_t index);

private:
    QString m_file;
    NotebookError m_error;
    bool m_failed = false;
};

} // namespace lizard::notebook
