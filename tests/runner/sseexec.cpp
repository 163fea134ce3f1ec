#include "runner/sseexec.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <curl/curl.h>

namespace lizard::test {

SseExec::SseExec(const QString& url, const QString& apiKey, const QByteArray& body)
{
    m_thread = std::thread(&SseExec::perform, this, url.toUtf8(), apiKey.toUtf8(), body);
}

SseExec::~SseExec()
{
    close();
}

void SseExec::close()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

void SseExec::perform(QByteArray url, QByteArray key, QByteArray body)
{
    CURL* c = curl_easy_init();
    curl_slist* headers = nullptr;
    headers = curl_slist_append(headers, ("X-API-Key: " + key).constData());
    headers = curl_slist_append(headers, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Accept: text/event-stream");
    curl_easy_setopt(c, CURLOPT_URL, url.constData());
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.constData());
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, long(body.size()));
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, &SseExec::onData);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, &SseExec::onProgress);
    curl_easy_setopt(c, CURLOPT_XFERINFODATA, this);
    curl_easy_setopt(c, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_perform(c);
    curl_slist_free_all(headers);
    curl_easy_cleanup(c);
    std::lock_guard lock(m_mutex);
    m_ended = true;
    m_cv.notify_all();
}

int SseExec::onProgress(void* self, long long, long long, long long, long long)
{
    return static_cast<SseExec*>(self)->m_stop ? 1 : 0; // non-zero aborts the transfer
}

size_t SseExec::onData(char* ptr, size_t size, size_t n, void* userdata)
{
    auto* self = static_cast<SseExec*>(userdata);
    self->m_sseBuffer.append(ptr, qsizetype(size * n));
    qsizetype newline;
    std::lock_guard lock(self->m_mutex);
    while ((newline = self->m_sseBuffer.indexOf('\n')) >= 0) {
        const QByteArray line = self->m_sseBuffer.left(newline).trimmed();
        self->m_sseBuffer.remove(0, newline + 1);
        if (!line.startsWith("data:"))
            continue;
        const QJsonObject frame = QJsonDocument::fromJson(line.mid(5).trimmed()).object();
        if (frame.value("stream").toString() == "stdout")
            self->m_lines.push_back(frame.value("line").toString().toUtf8());
    }
    self->m_cv.notify_all();
    return size * n;
}

bool SseExec::pump(int timeoutMs)
{
    std::deque<QByteArray> lines;
    {
        std::unique_lock lock(m_mutex);
        if (!m_cv.wait_for(lock, std::chrono::milliseconds(qMax(1, timeoutMs)),
                           [this] { return !m_lines.empty() || m_ended; }))
            return false;
        lines.swap(m_lines);
        if (lines.empty())
            return false; // ended
    }
    for (const QByteArray& line : lines) {
        if (auto event = m_decoder.feed(line))
            m_events[event->value("req").toString()].append(*event);
    }
    return true;
}

QJsonObject SseExec::waitForType(const QString& type, int timeoutMs)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (true) {
        for (const QJsonObject& e : m_events.value(QString())) {
            if (e.value("type").toString() == type)
                return e;
        }
        if (deadline.hasExpired() || !pump(int(deadline.remainingTime())))
            return {};
    }
}

RunnerOutcome SseExec::waitFor(const QString& req, int timeoutMs)
{
    RunnerOutcome outcome;
    QElapsedTimer clock;
    clock.start();
    const QDeadlineTimer deadline(timeoutMs);
    while (true) {
        QList<QJsonObject>& pending = m_events[req];
        while (!pending.isEmpty()) {
            outcome.events.append(pending.takeFirst());
            if (isTerminalEvent(outcome.events.last())) {
                outcome.finished = true;
                outcome.elapsedMs = clock.elapsed();
                return outcome;
            }
        }
        if (deadline.hasExpired() || !pump(int(deadline.remainingTime())))
            break;
    }
    outcome.elapsedMs = clock.elapsed();
    return outcome;
}

} // namespace lizard::test
