#pragma once
// libcurl's multi interface driven by the Qt event loop, the way curl's
// docs/examples/multi-event.c does it: CURLMOPT_SOCKETFUNCTION arms a QSocketNotifier pair per
// socket, CURLMOPT_TIMERFUNCTION one single-shot QTimer, curl_multi_socket_action runs on
// readiness, and finished transfers are drained with CURLINFO_PRIVATE. Nothing blocks.

#include <QObject>
#include <QTimer>
#include <curl/curl.h>
#include <memory>
#include <unordered_map>
#include <vector>

class QSocketNotifier;

namespace lizard::client {

class CurlTransfer;

class CurlMulti : public QObject
{
    Q_OBJECT
public:
    explicit CurlMulti(QObject* parent = nullptr);
    // Transfers still running are abandoned: their finish handler sees cancelled == true.
    ~CurlMulti() override;

    int runningCount() const { return int(m_active.size()); }

signals:
    // A transfer ended because the server could not be reached or its connection broke
    // (refused, reset, closed mid-answer); emitted after the transfer's own handler ran.
    void connectionBroke(int curlCode);

private:
    friend class CurlTransfer;
    struct SocketWatch
    {
        QSocketNotifier* read = nullptr;
        QSocketNotifier* write = nullptr;
    };

    bool attach(CurlTransfer* transfer); // curl_multi_add_handle
    void detach(CurlTransfer* transfer); // curl_multi_remove_handle; never from a curl callback
    void markPending(CurlTransfer* transfer);
    void resumeLater(CurlTransfer* transfer);

    static int onSocket(CURL* easy, curl_socket_t fd, int what, void* self, void* socketData);
    static int onTimer(CURLM* multi, long timeoutMs, void* self);
    void watchSocket(curl_socket_t fd, int what);
    void unwatchSocket(curl_socket_t fd);
    void socketAction(curl_socket_t fd, int eventMask);
    void afterAction();

    CURLM* m_multi = nullptr;
    QTimer m_timer;
    std::unordered_map<curl_socket_t, SocketWatch> m_sockets;
    std::unordered_map<quint64, CurlTransfer*>
        m_active;                       // by serial, so reused addresses never confuse us
    std::vector<quint64> m_pendingData; // transfers with undelivered stream bytes
    quint64 m_nextSerial = 1;
    int m_inCurl = 0;
};

} // namespace lizard::client
