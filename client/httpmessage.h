#pragma once
// One HTTP exchange as the transport sees it: what to send and what came back.

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace lizard::client {

struct HttpRequest
{
    QByteArray method = "GET";
    QByteArray url;            // absolute, already percent-encoded
    QList<QByteArray> headers; // "Name: value"
    QByteArray body;
    bool hasBody = false; // send body (even when empty)
    long timeoutMs = 0;   // whole transfer; 0 = none
    long connectTimeoutMs = 30000;
    bool streaming = false; // deliver data as it arrives; no content decoding
    QString caFile;         // extra certificate authority (PEM) for https://
};

struct HttpResponse
{
    int status = 0;                               // 0: no HTTP answer
    QByteArray reason;                            // reason phrase of the status line, if any
    QList<QPair<QByteArray, QByteArray>> headers; // names lower-cased, of the final answer
    QByteArray body;                              // whole body (not kept for streaming)
    int curlCode = 0;                             // CURLcode; 0 = transfer completed
    QString curlError;                            // curl's message when curlCode != 0
    bool cancelled = false;
    long httpVersion = 0; // CURL_HTTP_VERSION_* used; 0 if none

    QByteArray header(const QByteArray& lowerName) const
    {
        for (const auto& h : headers)
            if (h.first == lowerName)
                return h.second;
        return {};
    }
    bool isSuccess() const { return status >= 200 && status < 300; }
};

} // namespace lizard::client
