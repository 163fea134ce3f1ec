#pragma once
// Incremental Server-Sent Events parser (the WHATWG event-stream format). Feed it byte chunks
// split anywhere: lines may be cut across chunks, end in LF, CRLF or a lone CR, and UTF-8
// characters may be cut in the middle. Events are dispatched on a blank line.

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

namespace lizard::client {

struct SseEvent
{
    QString event = QStringLiteral("message"); // the `event:` field, "message" when absent
    QString data;                              // `data:` lines joined with "\n"
    QString id;                                // last `id:` seen so far (sticky, as in the spec)

    bool operator==(const SseEvent& other) const = default;
};

class SseParser
{
public:
    // Parses the bytes and returns the events they completed, in order.
    QList<SseEvent> feed(QByteArrayView chunk);
    // End of stream. Unlike a browser, a last event that lacks its blank line (or even its
    // final newline) is still dispatched, as the official SDK's exec reader does.
    QList<SseEvent> finish();

    QString lastEventId() const { return m_lastId; }
    int retryMs() const { return m_retryMs; } // -1 until the server sent `retry:`

private:
    void processLine(QByteArrayView line, QList<SseEvent>& out);
    void dispatch(QList<SseEvent>& out);

    QByteArray m_buffer;    // bytes of an unfinished line
    bool m_skipLf = false;  // the last chunk ended in CR: a leading LF belongs to it
    bool m_started = false; // the BOM check was done
    QByteArray m_data;      // data of the event being built, UTF-8
    bool m_hasData = false;
    QByteArray m_eventType;
    QString m_lastId;
    int m_retryMs = -1;
};

} // namespace lizard::client
