#include "client/curlmulti.h"

#include "client/curltransfer.h"

#include <QPointer>
#include <QSocketNotifier>
#include <QTimer>
#include <algorithm>
#include <utility>

namespace lizard::client {

CurlMulti::CurlMulti(QObject* parent) : QObject(parent)
{
    curlGlobalInit();
    m_multi = curl_multi_init();
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETFUNCTION, &CurlMulti::onSocket);
    curl_multi_setopt(m_multi, CURLMOPT_SOCKETDATA, this);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERFUNCTION, &CurlMulti::onTimer);
    curl_multi_setopt(m_multi, CURLMOPT_TIMERDATA, this);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, [this] { socketAction(CURL_SOCKET_TIMEOUT, 0); });
}

CurlMulti::~CurlMulti()
{
    m_timer.stop();
    // Remove every handle first, then tell the owners: their handlers may touch other transfers.
    std::vector<CurlTransfer*> left;
    for (auto& [serial, t] : m_active) {
        curl_multi_remove_handle(m_multi, t->m_easy);
        left.push_back(t);
    }
    m_active.clear();
    for (CurlTransfer* t : left)
        t->abandon();
    for (auto& [fd, watch] : m_sockets) {
        delete watch.read;
        delete watch.write;
    }
    m_sockets.clear();
    curl_multi_cleanup(m_multi);
}

bool CurlMulti::attach(CurlTransfer* transfer)
{
    transfer->m_serial = m_nextSerial++;
    transfer->m_multi = this;
    m_active.emplace(transfer->m_serial, transfer);
    if (curl_multi_add_handle(m_multi, transfer->m_easy) != CURLM_OK) {
        m_active.erase(transfer->m_serial);
        transfer->m_multi = nullptr;
        return false;
    }
    return true; // curl now asks for a 0 ms timeout; the transfer starts from the event loop
}

void CurlMulti::detach(CurlTransfer* transfer)
{
    Q_ASSERT(m_inCurl == 0); // handlers never run inside curl callbacks, so this cannot happen
    curl_multi_remove_handle(m_multi, transfer->m_easy);
    m_active.erase(transfer->m_serial);
    transfer->m_multi = nullptr;
}

void CurlMulti::markPending(CurlTransfer* transfer)
{
    if (std::find(m_pendingData.begin(), m_pendingData.end(), transfer->m_serial) ==
        m_pendingData.end())
        m_pendingData.push_back(transfer->m_serial);
}

// Unpauses a transfer whose owner caught up, from a fresh event-loop turn: curl may deliver
// the held-back bytes from inside curl_easy_pause, so this counts as a curl action.
void CurlMulti::resumeLater(CurlTransfer* transfer)
{
    const quint64 serial = transfer->m_serial;
    QTimer::singleShot(0, this, [this, serial] {
        const auto it = m_active.find(serial);
        if (it == m_active.end() || !it->second->m_paused)
            return;
        it->second->m_paused = false;
        ++m_inCurl;
        curl_easy_pause(it->second->m_easy, CURLPAUSE_CONT);
        --m_inCurl;
        afterAction();
    });
}

int CurlMulti::onSocket(CURL*, curl_socket_t fd, int what, void* self, void*)
{
    auto* multi = static_cast<CurlMulti*>(self);
    if (what == CURL_POLL_REMOVE)
        multi->unwatchSocket(fd);
    else
        multi->watchSocket(fd, what);
    return 0;
}

int CurlMulti::onTimer(CURLM*, long timeoutMs, void* self)
{
    auto* multi = static_cast<CurlMulti*>(self);
    // -1 stops the timer; 0 fires from the event loop, never from inside this callback.
    if (timeoutMs < 0)
        multi->m_timer.stop();
    else
        multi->m_timer.start(int(std::min<long>(timeoutMs, 24L * 3600 * 1000)));
    return 0;
}

void CurlMulti::watchSocket(curl_socket_t fd, int what)
{
    SocketWatch& watch = m_sockets[fd];
    if (watch.read == nullptr) {
        watch.read = new QSocketNotifier(qintptr(fd), QSocketNotifier::Read, this);
        connect(watch.read, &QSocketNotifier::activated, this,
                [this, fd] { socketAction(fd, CURL_CSELECT_IN); });
        watch.write = new QSocketNotifier(qintptr(fd), QSocketNotifier::Write, this);
        connect(watch.write, &QSocketNotifier::activated, this,
                [this, fd] { socketAction(fd, CURL_CSELECT_OUT); });
    }
    watch.read->setEnabled((what & CURL_POLL_IN) != 0);
    watch.write->setEnabled((what & CURL_POLL_OUT) != 0);
}

void CurlMulti::unwatchSocket(curl_socket_t fd)
{
    const auto it = m_sockets.find(fd);
    if (it == m_sockets.end())
        return;
    // We may be inside one of these notifiers' activated() signal: disable now, delete later.
    for (QSocketNotifier* n : {it->second.read, it->second.write}) {
        n->setEnabled(false);
        n->disconnect(this);
        n->deleteLater();
    }
    m_sockets.erase(it);
}

void CurlMulti::socketAction(curl_socket_t fd, int eventMask)
{
    int running = 0;
    ++m_inCurl;
    curl_multi_socket_action(m_multi, fd, eventMask, &running);
    --m_inCurl;
    afterAction();
}

namespace {
// The codes of "no server there" and "the server went away mid-answer".
bool brokeConnection(CURLcode code)
{
    switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_HTTP2_STREAM: // over HTTP/2 (https://): the connection closed with the stream open
        return true;
    default:
        return false;
    }
}
} // namespace

// Everything that may run the owners' code happens here, after libcurl returned. A handler
// may even destroy this CurlMulti (say, a dialog deleting its LizardApi): `self` notices.
void CurlMulti::afterAction()
{
    const QPointer<CurlMulti> self(this);
    const std::vector<quint64> pending = std::exchange(m_pendingData, {});
    for (quint64 serial : pending) {
        const auto it = m_active.find(serial);
        if (it != m_active.end())
            it->second->deliverPending();
        if (self == nullptr)
            return;
    }

    std::vector<std::pair<quint64, CURLcode>> done;
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(m_multi, &left)) {
        if (msg->msg != CURLMSG_DONE)
            continue;
        char* priv = nullptr;
        curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &priv);
        if (const auto* t = reinterpret_cast<CurlTransfer*>(priv))
            done.emplace_back(t->m_serial, msg->data.result);
    }
    for (const auto& [serial, code] : done) {
        const auto it = m_active.find(serial);
        if (it == m_active.end())
            continue; // cancelled or deleted by an earlier handler
        CurlTransfer* t = it->second;
        detach(t);
        t->complete(code);
        if (self == nullptr)
            return;
        if (brokeConnection(code)) {
            emit connectionBroke(int(code));
            if (self == nullptr)
                return;
        }
    }
}

} // namespace lizard::client
