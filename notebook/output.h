#pragma once
// Typed cell outputs, as nbformat 4 defines them: a stream of text, a rich result (a MIME
// bundle, from execute_result or display_data) or an error with its traceback.

#include <QString>
#include <QStringList>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <variant>

namespace lizard::notebook {

class SpillFile;

// Where the text of a stream that outgrew memory is (StreamOutput::spillThresholdChars).
struct SpilledText
{
    std::shared_ptr<SpillFile> file; // the whole text is its first `bytes` bytes, as UTF-8
    qint64 bytes = 0;
    qint64 chars = 0;    // the whole text's length in UTF-16 units (what QString::size says)
    qint64 newlines = 0; // '\n' in the whole text
    QString head;        // its first headChars characters
    bool operator==(const SpilledText&) const = default;
};

struct StreamOutput
{
    QString name; // "stdout" or "stderr"
    // The whole text; once spilled, only its end (at least tailChars of it).
    QString text;
    std::optional<SpilledText> spilled;
    bool operator==(const StreamOutput&) const = default;

    // A stream goes to disk beyond 4 MiB in memory (QString is UTF-16). The view shows 200 lines
    // of head and tail, so memory beyond that buys nothing; below it stay the outputs people
    // read whole (a pip log, a training run's progress), with no file and no disk traffic. The
    // bound also caps what an autosave snapshot can cost the UI thread: a stream that grows
    // after a snapshot copies its in-memory text once (a few MiB, about a millisecond).
    static constexpr qsizetype spillThresholdChars = 2 * 1024 * 1024;
    static constexpr qsizetype headChars = 128 * 1024; // kept after a spill: ~256 KiB
    static constexpr qsizetype tailChars = 128 * 1024; // kept: between 1x and 2x this
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

// Jupyter shows consecutive stream outputs of the same name as one: true when next's text can
// be appended to last (both streams of the same name, next not spilled itself).
bool canMergeStream(const Output& last, const Output& next);
// Appends next's text to last (see appendToStream) when canMergeStream; returns whether it did.
bool mergeStream(Output& last, const Output& next);

// Roughly what the output holds in memory, in bytes (spilled text not counted).
qint64 outputMemoryBytes(const Output& output);

// True for MIME types whose values nbformat stores as JSON rather than as strings.
bool isJsonMime(const QString& mime);

// The MIME types an output is shown as, best first, as JupyterLab ranks them: images, then rich
// text, then plain text. The cell view and the HTML export both choose with preferredMime.
const QStringList& mimeRanking();
// The best MIME type of `output` that `usable` accepts (every one, without it): the ranking
// first, then any other JSON type, then any other text/ type. Empty when none is.
QString preferredMime(const RichOutput& output,
                      const std::function<bool(const QString& mime)>& usable = {});

} // namespace lizard::notebook
