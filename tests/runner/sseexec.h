#pragma once
// A streaming exec (`Accept: text/event-stream`) against a real lizard-local, read with libcurl on
// its own thread: the runner's stdout lines become runner events, grouped by request id.

#include "runner/eventdecoder.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace lizard::test {

class SseExec
{
public:
    // POSTs `body` to `url` (the exec endpoint) with the API key and starts reading.
    SseExec(const QString& url, const QString& apiKey, const QByteArray& body);
    ~SseExec(); // stops reading (closes the connection) and joins the thread

    QJsonObject waitForType(const QString& type, int timeoutMs); // first event of that type, no req
    RunnerOutcome waitFor(const QString& req, int timeoutMs);    // until its terminal event
    void close();                                                // drops the connection now
    bool ended() const { return m_ended; }

private:
    static size_t onData(char* ptr, size_t size, size_t n, void* self);
    static int onProgress(void* self, long long, long long, long long, long long);
    void perform(QByteArray url, QByteArray key, QByteArray body);
    bool pump(int timeoutMs); // moves arrived lines into events; false on timeout or end

    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<QByteArray> m_lines; // runner stdout lines, guarded by m_mutex
    QByteArray m_sseBuffer;         // reader thread only
    std::atomic<bool> m_stop{false};
    std::atomic<bool> m_ended{false};
    EventDecoder m_decoder;
    QHash<QString, QList<QJsonObject>> m_events;
};

} // namespace lizard::test
