#pragma once
// The full output of console commands, kept in a temporary file while the view shows only
// the last lines. "Save output…" copies it.

#include "client/outcome.h"

#include <QFile>
#include <QString>
#include <QTemporaryFile>
#include <memory>

namespace lizard::models {

class OutputLog
{
public:
    OutputLog();

    // False with errorString() if the temporary file cannot be created or written.
    bool append(const QList<client::OutputLine>& lines);
    bool appendText(const QString& text); // e.g. "$ ls /" and "[exit 0]" markers
    qint64 lineCount() const { return m_lines; }
    qint64 size() const;
    QString fileName() const;

    // Copies everything written so far to `path` (overwrites). False with errorString().
    bool saveTo(const QString& path);
    void clear();
    QString errorString() const { return m_error; }

private:
    bool ensureOpen();

    std::unique_ptr<QTemporaryFile> m_file;
    qint64 m_lines = 0;
    QString m_error;
};

} // namespace lizard::models
