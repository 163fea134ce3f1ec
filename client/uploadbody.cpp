#include "client/uploadbody.h"

#include "client/jsonmapping.h"

#include <cstring>

namespace lizard::client {

namespace {
constexpr qint64 kChunk = 48 * 1024; // a multiple of 3: base64 pieces join without padding
}

bool UploadBody::open(const QString& localPath, const QString& remotePath)
{
    m_file.setFileName(localPath);
    if (!m_file.open(QIODevice::ReadOnly)) {
        m_error = QStringLiteral("cannot read %1: %2").arg(localPath, m_file.errorString());
        return false;
    }
    if (m_file.isSequential()) {
        m_error = QStringLiteral("%1 is not a regular file").arg(localPath);
        return false;
    }
    m_fileSize = m_file.size();
    // pathBody gives {"path":"..."} with the path escaped as JSON; we continue the object.
    m_prefix = pathBody(remotePath);
    m_prefix.chop(1);
    m_prefix += R"(,"encoding":"base64","content":")";
    m_suffix = R"("})";
    m_size = m_prefix.size() + (m_fileSize + 2) / 3 * 4 + m_suffix.size();
    return true;
}

bool UploadBody::refill()
{
    m_buffer.clear();
    m_bufferPos = 0;
    while (m_buffer.isEmpty() && m_stage < 3) {
        if (m_stage == 0) {
            m_buffer = m_prefix;
            m_stage = 1;
        } else if (m_stage == 1) {
            const qint64 want = qMin(kChunk, m_fileSize - m_fileRead);
            if (want == 0) {
                m_stage = 2;
                continue;
            }
            QByteArray raw = m_file.read(want);
            if (raw.size() != want) {
                m_error = raw.size() < 0 || m_file.error() != QFileDevice::NoError
                              ? QStringLiteral("read error: %1").arg(m_file.errorString())
                              : QStringLiteral("the file became shorter while it was uploaded");
                return false;
            }
            m_fileRead += raw.size();
            m_buffer = raw.toBase64();
        } else {
            if (m_file.read(1).size() != 0) {
                m_error = QStringLiteral("the file grew while it was uploaded");
                return false;
            }
            m_buffer = m_suffix;
            m_stage = 3;
        }
    }
    return true;
}

qint64 UploadBody::read(char* out, qint64 max)
{
    qint64 written = 0;
    while (written < max) {
        if (m_bufferPos >= m_buffer.size()) {
            if (m_stage >= 3)
                break;
            if (!refill())
                return -1;
            if (m_buffer.isEmpty())
                break;
        }
        const qint64 n = qMin(max - written, qint64(m_buffer.size() - m_bufferPos));
        std::memcpy(out + written, m_buffer.constData() + m_bufferPos, size_t(n));
        m_bufferPos += qsizetype(n);
        written += n;
    }
    return written;
}

} // namespace lizard::client
