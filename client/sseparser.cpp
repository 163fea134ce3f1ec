#include "client/sseparser.h"

#include <QStringDecoder>

namespace lizard::client {

namespace {

// QString::fromUtf8 drops a byte order mark at the start, which would turn `event: <BOM>`
// into no event name at all and cut a character off data that starts with one: only the
// stream's own first BOM is framing (processLine drops it), a field's is content.
QString decodeField(QByteArrayView bytes)
{
    // Stateless: a sequence cut short at the end is U+FFFD, not held back for more bytes.
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::ConvertInitialBom |
                                                     QStringDecoder::Flag::Stateless);
    return decoder.decode(bytes);
}

} // namespace

QList<SseEvent> SseParser::feed(QByteArrayView chunk)
{
    QList<SseEvent> out;
    qsizetype pos = 0;
    const qsizetype n = chunk.size();
    if (m_skipLf && n > 0) {
        if (chunk[0] == '\n')
            pos = 1;
        m_skipLf = false;
    }
    while (pos < n) {
        qsizetype end = pos;
        while (end < n && chunk[end] != '\n' && chunk[end] != '\r')
            ++end;
        if (end == n) {
            m_buffer.append(chunk.sliced(pos));
            break;
        }
        // A complete line. Bytes are only split on CR/LF, which never occur inside a UTF-8
        // sequence, so a character cut across chunks is whole again here.
        if (m_buffer.isEmpty()) {
            processLine(chunk.sliced(pos, end - pos), out);
        } else {
            m_buffer.append(chunk.sliced(pos, end - pos));
            const QByteArray line = std::exchange(m_buffer, QByteArray());
            processLine(line, out);
        }
        if (chunk[end] == '\r') {
            if (end + 1 < n) {
                if (chunk[end + 1] == '\n')
                    ++end;
            } else {
                m_skipLf = true;
            }
        }
        pos = end + 1;
    }
    return out;
}

QList<SseEvent> SseParser::finish()
{
    QList<SseEvent> out;
    if (!m_buffer.isEmpty()) {
        const QByteArray line = std::exchange(m_buffer, QByteArray());
        processLine(line, out);
    }
    dispatch(out);
    m_skipLf = false;
    return out;
}

void SseParser::processLine(QByteArrayView line, QList<SseEvent>& out)
{
    if (!m_started) {
        m_started = true;
        if (line.startsWith("\xEF\xBB\xBF"))
            line = line.sliced(3);
    }
    if (line.isEmpty()) {
        dispatch(out);
        return;
    }
    if (line[0] == ':')
        return; // comment
    const qsizetype colon = line.indexOf(':');
    QByteArrayView field = colon < 0 ? line : line.first(colon);
    QByteArrayView value = colon < 0 ? QByteArrayView() : line.sliced(colon + 1);
    if (!value.isEmpty() && value[0] == ' ')
        value = value.sliced(1);

    if (field == "data") {
        if (m_hasData)
            m_data.append('\n');
        m_data.append(value);
        m_hasData = true;
    } else if (field == "event") {
        m_eventType = value.toByteArray();
    } else if (field == "id") {
        if (!value.contains('\0'))
            m_lastId = decodeField(value);
    } else if (field == "retry") {
        bool ok = false;
        const int ms = value.toByteArray().toInt(&ok);
        if (ok && ms >= 0 && value.indexOf('+') < 0)
            m_retryMs = ms;
    }
    // Any other field is ignored, as the spec says.
}

void SseParser::dispatch(QList<SseEvent>& out)
{
    if (m_hasData) {
        SseEvent ev;
        if (!m_eventType.isEmpty())
            ev.event = decodeField(m_eventType);
        ev.data = decodeField(m_data);
        ev.id = m_lastId;
        out.append(std::move(ev));
    }
    m_data.clear();
    m_hasData = false;
    m_eventType.clear();
}

} // namespace lizard::client
