#include "client/curltransfer.h"

#include "client/curlmulti.h"
#include "client/keytransport.h"
#include "client/tlsconfig.h"

#include <QUrl>
#include <mutex>

namespace lizard::client {

void curlGlobalInit()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

namespace {

bool isLoopbackUrl(const QByteArray& url)
{
    return isLoopbackHost(QUrl(QString::fromUtf8(url)).host());
}

} // namespace

CurlTransfer::CurlTransfer(HttpRequest request) : m_request(std::move(request))
{
    curlGlobalInit();
    m_easy = curl_easy_init();
    configure();
}

CurlTransfer::~CurlTransfer()
{
    cancel();
    curl_easy_cleanup(m_easy);
    curl_slist_free_all(m_headerList);
}

void CurlTransfer::configure()
{
    curl_easy_setopt(m_easy, CURLOPT_PRIVATE, this);
    curl_easy_setopt(m_easy, CURLOPT_URL, m_request.url.constData());
    curl_easy_setopt(m_easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(m_easy, CURLOPT_ERRORBUFFER, m_errorBuffer);
    curl_easy_setopt(m_easy, CURLOPT_FOLLOWLOCATION,
                     0L); // API answers are never redirects we follow
    curl_easy_setopt(m_easy, CURLOPT_HEADERFUNCTION, &CurlTransfer::onHeader);
    curl_easy_setopt(m_easy, CURLOPT_HEADERDATA, this);
    curl_easy_setopt(m_easy, CURLOPT_WRITEFUNCTION, &CurlTransfer::onWrite);
    curl_easy_setopt(m_easy, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(m_easy, CURLOPT_CONNECTTIMEOUT_MS, m_request.connectTimeoutMs);
    if (m_request.timeoutMs > 0)
        curl_easy_setopt(m_easy, CURLOPT_TIMEOUT_MS, m_request.timeoutMs);
    if (!m_request.streaming)
        curl_easy_setopt(m_easy, CURLOPT_ACCEPT_ENCODING, ""); // whatever curl can decode
    // A local server is never reached through the user's proxy; everything else honours
    // http_proxy/https_proxy/no_proxy from the environment (libcurl's default).
    if (isLoopbackUrl(m_request.url))
        curl_easy_setopt(m_easy, CURLOPT_PROXY, "");
    applyTlsOptions(m_easy, m_request.caFile);
    if (curl_slist* resolve = testResolveList())
        curl_easy_setopt(m_easy, CURLOPT_RESOLVE, resolve);

    const QByteArray& method = m_request.method;
    if (method == "GET" && !m_request.hasBody) {
        curl_easy_setopt(m_easy, CURLOPT_HTTPGET, 1L);
    } else if (method == "HEAD") {
        curl_easy_setopt(m_easy, CURLOPT_NOBODY, 1L);
    } else {
        if (m_request.hasBody || method == "POST") {
            curl_easy_setopt(m_easy, CURLOPT_POSTFIELDSIZE_LARGE,
                             curl_off_t(m_request.body.size()));
            curl_easy_setopt(m_easy, CURLOPT_POSTFIELDS, m_request.body.constData());
        }
        if (method != "POST")
            curl_easy_setopt(m_easy, CURLOPT_CUSTOMREQUEST, method.constData());
    }

    for (const QByteArray& h : m_request.headers)
        m_headerList = curl_slist_append(m_headerList, h.constData());
    // No "Expect: 100-continue" round trip for large bodies.
    m_headerList = curl_slist_append(m_headerList, "Expect:");
    curl_easy_setopt(m_easy, CURLOPT_HTTPHEADER, m_headerList);
}

bool CurlTransfer::start(CurlMulti* multi)
{
    if (m_multi != nullptr || m_finished || multi == nullptr)
        return false;
    return multi->attach(this);
}

void CurlTransfer::cancel()
{
    if (m_multi != nullptr)
        m_multi->detach(this);
    m_pending.clear();
    m_finished = true;
}

size_t CurlTransfer::onHeader(char* data, size_t size, size_t count, void* self)
{
    auto* t = static_cast<CurlTransfer*>(self);
    const size_t n = size * count;
    QByteArray line(data, qsizetype(n));
    line = line.trimmed();
    if (line.startsWith("HTTP/")) {
        // A new status line (after a 1xx, or a proxy's CONNECT answer) starts a new header block.
        t->m_response.headers.clear();
        const QList<QByteArray> parts = line.split(' ');
        t->m_response.status = parts.size() > 1 ? parts[1].toInt() : 0;
        const qsizetype reasonAt = parts.size() > 2 ? line.indexOf(' ', line.indexOf(' ') + 1) : -1;
        t->m_response.reason = reasonAt > 0 ? line.mid(reasonAt + 1) : QByteArray();
    } else if (const qsizetype colon = line.indexOf(':'); colon > 0) {
        t->m_response.headers.append(
            {line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed()});
    }
    return n;
}

namespace {
constexpr qsizetype kMaxPendingBytes = 128 * 1024;
}

size_t CurlTransfer::onWrite(char* data, size_t size, size_t count, void* self)
{
    auto* t = static_cast<CurlTransfer*>(self);
    const size_t n = size * count;
    if (t->m_request.streaming && t->m_response.isSuccess() && t->m_onData) {
        // Flow control: hand the owner at most kMaxPendingBytes per event-loop turn. A fast
        // stream (a command printing 100k lines) would otherwise be parsed in one long turn.
        if (t->m_pending.size() >= kMaxPendingBytes && t->m_multi != nullptr) {
            t->m_paused = true;
            return CURL_WRITEFUNC_PAUSE; // curl keeps these bytes and offers them again
        }
        t->m_pending.append(data, qsizetype(n));
        if (t->m_multi != nullptr)
            t->m_multi->markPending(t);
    } else {
        t->m_response.body.append(data, qsizetype(n));
    }
    return n;
}

void CurlTransfer::setBodySource(qint64 size, BodySource source)
{
    m_bodySource = std::move(source);
    curl_easy_setopt(m_easy, CURLOPT_POSTFIELDS, nullptr);
    curl_easy_setopt(m_easy, CURLOPT_POST, 1L);
    curl_easy_setopt(m_easy, CURLOPT_READFUNCTION, &CurlTransfer::onRead);
    curl_easy_setopt(m_easy, CURLOPT_READDATA, this);
    curl_easy_setopt(m_easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(size));
}

size_t CurlTransfer::onRead(char* data, size_t size, size_t count, void* self)
{
    auto* t = static_cast<CurlTransfer*>(self);
    const qint64 n = t->m_bodySource ? t->m_bodySource(data, qint64(size * count)) : 0;
    return n < 0 ? CURL_READFUNC_ABORT : size_t(n);
}

void CurlTransfer::deliverPending()
{
    if (m_pending.isEmpty() || !m_onData)
        return;
    const QByteArray chunk = std::move(m_pending);
    m_pending = QByteArray();
    const std::weak_ptr<int> alive = m_alive;
    const DataHandler handler = m_onData; // the handler may delete this transfer
    handler(chunk);
    if (!alive.expired() && m_paused && m_multi != nullptr)
        m_multi->resumeLater(this);
}

void CurlTransfer::complete(CURLcode code)
{
    const std::weak_ptr<int> alive = m_alive;
    deliverPending();
    if (alive.expired() || m_finished)
        return;
    m_finished = true;
    m_response.curlCode = int(code);
    curl_easy_getinfo(m_easy, CURLINFO_HTTP_VERSION, &m_response.httpVersion);
    if (code != CURLE_OK) {
        m_response.curlError = QString::fromUtf8(m_errorBuffer);
        if (m_response.curlError.isEmpty())
            m_response.curlError = QString::fromUtf8(curl_easy_strerror(code));
    }
    if (m_onFinish) {
        const FinishHandler handler = m_onFinish;
        handler(m_response);
    }
}

void CurlTransfer::abandon()
{
    m_multi = nullptr;
    m_pending.clear();
    if (m_finished)
        return;
    m_finished = true;
    m_response.cancelled = true;
    if (m_onFinish) {
        const FinishHandler handler = m_onFinish;
        handler(m_response);
    }
}

} // namespace lizard::client
