#include "notebook/streamtext.h"

#include "notebook/spillfile.h"

#include <QSaveFile>
#include <QtDebug>

namespace lizard::notebook {

namespace {

// The disk failed under a spilled stream: bring the whole text back into memory rather than
// lose any of it.
void unspill(StreamOutput& stream, QStringView more, const QString& why)
{
    qWarning("lizard: stream output no longer kept on disk (%s); keeping it in memory",
             qPrintable(why));
    QString error;
    const StreamText whole(stream);
    QString text = whole.readAll(&error);
    if (!error.isEmpty()) // the file is gone too: keep what memory still has, say what is missing
        text = stream.spilled->head +
               QStringLiteral("\n[… part of this output was lost: %1 …]\n").arg(error) +
               stream.text;
    stream.text = text + more.toString();
    stream.spilled.reset();
}

} // namespace

qint64 streamLength(const StreamOutput& stream)
{
    return stream.spilled ? stream.spilled->chars : stream.text.size();
}

void spillIfLarge(StreamOutput& stream)
{
    if (stream.spilled || stream.text.size() <= StreamOutput::spillThresholdChars)
        return;
    QString error;
    std::shared_ptr<SpillFile> file = SpillFile::create(&error);
    const QByteArray bytes = stream.text.toUtf8();
    if (!file || !file->append(bytes, &error)) {
        static bool warned = false;
        if (!warned)
            qWarning("lizard: cannot keep a large output on disk (%s); it stays in memory",
                     qPrintable(error));
        warned = true;
        return;
    }
    SpilledText spilled;
    spilled.file = std::move(file);
    spilled.bytes = bytes.size();
    spilled.chars = stream.text.size();
    spilled.newlines = QStringView(stream.text).count(u'\n');
    spilled.head = stream.text.left(StreamOutput::headChars);
    stream.text = stream.text.right(StreamOutput::tailChars);
    stream.spilled = std::move(spilled);
}

void appendToStream(StreamOutput& stream, QStringView more)
{
    if (!stream.spilled) {
        stream.text += more;
        spillIfLarge(stream);
        return;
    }
    SpilledText& spilled = *stream.spilled;
    QString error;
    // Another copy of this output (a forked notebook) appended to the file after ours was
    // taken: ours continues in a file of its own.
    if (spilled.file->size() != spilled.bytes) {
        std::shared_ptr<SpillFile> own =
            SpillFile::copyPrefix(*spilled.file, spilled.bytes, &error);
        if (!own) {
            unspill(stream, more, error);
            return;
        }
        spilled.file = std::move(own);
    }
    const QByteArray bytes = more.toUtf8();
    if (!spilled.file->append(bytes, &error)) {
        unspill(stream, more, error);
        return;
    }
    spilled.bytes += bytes.size();
    spilled.chars += more.size();
    spilled.newlines += more.count(u'\n');
    stream.text += more;
    // Trimmed in steps of tailChars, so the copy is paid once per tailChars appended.
    if (stream.text.size() > 2 * StreamOutput::tailChars)
        stream.text = stream.text.right(StreamOutput::tailChars);
}

StreamText::StreamText(const StreamOutput& stream)
{
    if (stream.spilled) {
        m_file = stream.spilled->file;
        m_bytes = stream.spilled->bytes;
    } else {
        m_memory = stream.text.toUtf8();
    }
}

QByteArray StreamText::read(qint64 offset, qint64 maxBytes, QString* error) const
{
    offset = qBound<qint64>(0, offset, size());
    maxBytes = qBound<qint64>(0, maxBytes, size() - offset);
    if (!m_file)
        return m_memory.mid(offset, maxBytes);
    if (!m_in) {
        m_in = std::make_unique<QFile>(m_file->path());
        if (!m_in->open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("cannot read %1: %2").arg(m_file->path(), m_in->errorString());
            m_in.reset();
            return {};
        }
    }
    QByteArray out;
    if (!m_in->seek(offset) || (out = m_in->read(maxBytes)).size() != maxBytes) {
        *error = QStringLiteral("cannot read %1: %2").arg(m_file->path(), m_in->errorString());
        return {};
    }
    return out;
}

QString StreamText::readAll(QString* error) const
{
    const QByteArray bytes = read(0, size(), error);
    return error->isEmpty() ? QString::fromUtf8(bytes) : QString();
}

QString StreamText::copyTo(const QString& path) const
{
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(path, out.errorString());
    QString error;
    for (qint64 at = 0; at < size(); at += chunkBytes) {
        const QByteArray piece = read(at, chunkBytes, &error);
        if (!error.isEmpty())
            return error;
        if (out.write(piece) != piece.size())
            return QStringLiteral("cannot write %1: %2").arg(path, out.errorString());
    }
    if (!out.commit())
        return QStringLiteral("cannot write %1: %2").arg(path, out.errorString());
    return {};
}

} // namespace lizard::notebook
