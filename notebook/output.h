#pragma once
// Typed cell outputs, as nbformat 4 defines them: a stream of text, a rich result (a MIME
// bundle, from execute_result or display_data) or an error with its traceback.

#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

namespace lizard::notebook {

struct StreamOutput
{
    QString name; // "stdout" or "stderr"
    QString text;
    bool operator==(const StreamOutput&) const = default;
};

struct RichOutput
{
    enum class Kind { ExecuteResult, DisplayData };
    Kind kind = Kind::DisplayData;
    // MIME type -> value. Text and base64 (images) are JSON strings; application/json and
    // */*+json values are JSON as they came. Every entry is kept, not just the one shown.
    nlohmann::json data = nlohmann::json::object();
    nlohmann::json metadata = nlohmann::json::object();
    std::optional<int> executionCount; // execute_result only
    // Set when the kernel may update this output later (update_display_data with the same id
    // replaces its data and metadata). Runtime only: nbformat saves no display id.
    QString displayId;

    QStringList mimeTypes() const;
    bool has(const QString& mime) const;
    // The value as text: strings as they are, JSON values serialized. Empty if absent.
    QString text(const QString& mime) const;
    bool operator==(const RichOutput&) const = default;
};

struct ErrorOutput
{
    QString ename;
    QString evalue;
    QStringList traceback; // lines as the kernel sent them, ANSI colour codes included
    bool operator==(const ErrorOutput&) const = default;
};

using Output = std::variant<StreamOutput, RichOutput, ErrorOutput>;

// nbformat's "output_type": stream, execute_result, display_data or error.
QString outputTypeName(const Output& output);

// Jupyter shows consecutive stream outputs of the same name as one: appends next's text to
// last and returns true when both are streams of the same name.
bool mergeStream(Output& last, const Output& next);

// True for MIME types whose values nbformat stores as JSON rather than as strings.
bool isJsonMime(const QString& mime);

} // namespace lizard::notebook
