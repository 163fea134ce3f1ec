#include "models/outputlog.h"

#include <QDir>
#include <QSaveFile>

namespace lizard::models {

OutputLog::OutputLog() = default;

bool OutputLog::ensureOpen()
{
    if (m_file)
        return true;
    auto file = std::make_unique<QTemporaryFile>(QDir::tempPath() + "/lizard-console-XXXXXX.log");
    if (!file->open()) {
        m_error = "Cannot create the console output file: " + file->errorString();
        return false;
    }
    m_file = std::move(file);
    return true;
}

bool OutputLog::append(const QList<client::OutputLine>& lines)
{
    if (!ensureOpen())
        return false;
    QByteArray chunk;
    for (const auto& line : lines) {
        chunk += line.text.toUtf8();
        chunk += '\n';
    }
    if (m_file->write(chunk) != chunk.size()) {
        m_error = "Cannot write the console output file: " + m_file->errorString();
        return false;
    }
    m_lines += lines.size();
    return true;
}

bool OutputLog::appendText(const QString& text)
{
    return append({client::OutputLine{client::OutputStream::Stdout, text}});
}

qint64 OutputLog::size() const
{
    return m_file ? m_file->size() : 0;
}

QString OutputLog::fileName() const
{
    return m_file ? m_file->fileName() : QString();
}

bool OutputLog::saveTo(const QString& path)
{
    if (!ensureOpen())
        return false;
    if (!m_file->flush()) {
        m_error = "Cannot flush the console output file: " + m_file->errorString();
        return false;
    }
    QFile source(m_file->fileName());
    if (!source.open(QIODevice::ReadOnly)) {
        m_error = "Cannot read the console output file: " + source.errorString();
        return false;
    }
    // QSaveFile: an existing file is replaced only once the copy is complete.
    QSaveFile target(path);
    if (!target.open(QIODevice::WriteOnly)) {
        m_error = "Cannot write " + path + ": " + target.errorString();
        return false;
    }
    while (!source.atEnd()) {
        const QByteArray block = source.read(1 << 20);
        if (block.isEmpty() || target.write(block) != block.size()) {
            m_error = "Cannot write " + path + ": " + target.errorString();
            target.cancelWriting();
            return false;
        }
    }
    if (!target.commit()) {
        m_error = "Cannot write " + path + ": " + target.errorString();
        return false;
    }
    return true;
}

void OutputLog::clear()
{
    m_file.reset();
    m_lines = 0;
}

} // namespace lizard::models
