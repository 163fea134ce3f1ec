#pragma once
// The body of a streaming upload: the JSON of POST /api/sandboxes/{id}/files
// ({"path": ..., "encoding": "base64", "content": "..."}) produced piece by piece from a local
// file, so a large file is never held in memory. Its size is known before the first byte.

#include <QByteArray>
#include <QFile>
#include <QString>

namespace lizard::client {

class UploadBody
{
public:
    // Opens localPath for reading. false with errorString() when it cannot.
    bool open(const QString& localPath, const QString& remotePath);

    qint64 size() const { return m_size; } // total body bytes (Content-Length)
    qint64 fileSize() const { return m_fileSize; }
    qint64 fileBytesRead() const { return m_fileRead; }
    QString errorString() const { return m_error; }

    // Copies up to max body bytes to out; 0 at the end, -1 on a read error (errorString()).
    // A file that shrinks or grows while it is read is an error: the announced size would lie.
    qint64 read(char* out, qint64 max);

private:
    bool refill();

    QFile m_file;
    QByteArray m_prefix;
    QByteArray m_suffix;
    QByteArray m_buffer; // encoded bytes not yet handed out
    qsizetype m_bufferPos = 0;
    qint64 m_size = 0;
    qint64 m_fileSize = 0;
    qint64 m_fileRead = 0;
    int m_stage = 0; // 0 prefix, 1 content, 2 suffix, 3 done
    QString m_error;
};

} // namespace lizard::client
