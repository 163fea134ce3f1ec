#pragma once
// Growing a stream output and reading it back whole. A stream that outgrows memory
// (StreamOutput::spillThresholdChars) moves to a SpillFile and keeps only its head and tail in
// memory; StreamText then reads every byte from the file, in pieces, on any thread.

#include "notebook/output.h"

#include <QByteArray>
#include <QFile>

namespace lizard::notebook {

// Appends text to the stream, spilling it to disk once it is large. Never loses text: if the
// disk fails, the stream goes back to memory (and says so with a warning in the log).
void appendToStream(StreamOutput& stream, QStringView more);
// Moves the text of a large stream to disk (a notebook opened with a huge output).
void spillIfLarge(StreamOutput& stream);
// The whole text's length in UTF-16 units, spilled or not.
qint64 streamLength(const StreamOutput& stream);

// The whole text of a stream as UTF-8, as it was when this was made (later appends are not
// seen). Holds the spill file open, so the text stays readable after the outputs are cleared.
class StreamText
{
public:
    explicit StreamText(const StreamOutput& stream);

    bool spilled() const { return m_file != nullptr; }
    qint64 size() const { return m_file ? m_bytes : m_memory.size(); } // bytes of UTF-8
    // Up to maxBytes from offset; fewer at the end. Empty with *error set when the file fails.
    QByteArray read(qint64 offset, qint64 maxBytes, QString* error) const;
    // Everything (meant for tests and small texts). Empty with *error set on failure.
    QString readAll(QString* error) const;
    // Writes everything to path. Empty on success, else the reason.
    QString copyTo(const QString& path) const;

    static constexpr qint64 chunkBytes = 1 << 20; // what copies read at a time

private:
    std::shared_ptr<SpillFile> m_file;
    qint64 m_bytes = 0;
    QByteArray m_memory;
    mutable std::unique_ptr<QFile> m_in;
};

} // namespace lizard::notebook
