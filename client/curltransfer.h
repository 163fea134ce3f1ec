#pragma once
// One HTTP transfer (a libcurl easy handle) run by a CurlMulti. Handlers are always called
// from the Qt event loop, never from inside a libcurl callback, so they may cancel or delete
// this transfer (or any other) freely.

#include "client/httpmessage.h"

#include <curl/curl.h>
#include <functional>
#include <memory>

namespace lizard::client {

class CurlMulti;

// curl_global_init, once per process (libcurl never cleaned up before exit).
void curlGlobalInit();

class CurlTransfer
{
public:
    // Streaming only: a batch of body bytes of a 2xx answer, as it arrived.
    using DataHandler = std::function<void(const QByteArray& chunk)>;
    // Once, when the transfer ended (completed, failed, or abandoned by its CurlMulti).
    using FinishHandler = std::function<void(const HttpResponse& response)>;

    explicit CurlTransfer(HttpRequest request);
    ~CurlTransfer();
    CurlTransfer(const CurlTransfer&) = delete;
    CurlTransfer& operator=(const CurlTransfer&) = delete;

    void setDataHandler(DataHandler handler) { m_onData = std::move(handler); }
    void setFinishHandler(FinishHandler handler) { m_onFinish = std::move(handler); }
    // Streaming upload (files panel): the POST body comes from source instead of request().body;
    // size is its exact length. source runs inside libcurl: it returns the bytes it copied (0 at
    // the end, -1 to abort) and must not call back into Qt objects other than its own.
    using BodySource = std::function<qint64(char* out, qint64 max)>;
    void setBodySource(qint64 size, BodySource source);

    // Starts the transfer on multi. Returns false (and never calls a handler) if curl refused.
    bool start(CurlMulti* multi);
    // Stops the transfer now; no handler runs afterwards.
    void cancel();
    bool isRunning() const { return m_multi != nullptr; }

    const HttpRequest& request() const { return m_request; }
    // Status and headers so far (complete once the first body byte or the end arrived).
    const HttpResponse& response() const { return m_response; }

private:
    friend class CurlMulti;

    static size_t onHeader(char* data, size_t size, size_t count, void* self);
    static size_t onWrite(char* data, size_t size, size_t count, void* self);
    static size_t onRead(char* data, size_t size, size_t count, void* self);
    void configure();
    void deliverPending();        // called by CurlMulti outside curl callbacks
    void complete(CURLcode code); // called by CurlMulti after removing the handle
    void abandon();               // the CurlMulti is going away

    HttpRequest m_request;
    HttpResponse m_response;
    QByteArray m_pending; // streamed bytes not yet handed to m_onData
    DataHandler m_onData;
    FinishHandler m_onFinish;
    BodySource m_bodySource;
    CURL* m_easy = nullptr;
    curl_slist* m_headerList = nullptr;
    CurlMulti* m_multi = nullptr;
    quint64 m_serial = 0;
    bool m_finished = false;
    bool m_paused = false; // curl holds data back until the owner caught up
    char m_errorBuffer[CURL_ERROR_SIZE] = {};
    std::shared_ptr<int> m_alive = std::make_shared<int>(0);
};

} // namespace lizard::client
