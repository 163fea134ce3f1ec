#include "client/tlsconfig.h"

#include "client/types.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <mutex>

namespace lizard::client {

QString caFileFor(const Endpoint& endpoint)
{
    const QString own = endpoint.caFile.trimmed();
    return own.isEmpty() ? qEnvironmentVariable("LIZARD_CA_BUNDLE").trimmed() : own;
}

namespace {

// The CA file's bytes, read once per change of the file (every transfer would otherwise read
// it again). Transfers are made on more than one thread (offthread.h), hence the lock.
QByteArray readCaFile(const QString& path)
{
    struct Entry
    {
        QDateTime modified;
        qint64 size = -1;
        QByteArray pem;
    };
    static std::mutex lock;
    static QHash<QString, Entry> cache;
    const QFileInfo info(path);
    const std::lock_guard<std::mutex> guard(lock);
    Entry& e = cache[path];
    if (e.size != info.size() || e.modified != info.lastModified()) {
        QFile f(path);
        e.pem = info.size() < 16 * 1024 * 1024 && f.open(QIODevice::ReadOnly) ? f.readAll()
                                                                              : QByteArray();
        e.size = info.size();
        e.modified = info.lastModified();
    }
    return e.pem;
}

} // namespace

void applyTlsOptions(CURL* easy, const QString& caFile)
{
    // libcurl 7.88 negotiates HTTP/2 over TLS by default; said here so a different build or a
    // changed default cannot silently drop it (plain http:// stays HTTP/1.1).
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_2TLS));
    if (caFile.isEmpty())
        return;
    const QByteArray pem = readCaFile(caFile);
    if (!pem.isEmpty()) {
        // A blob replaces the default CA file but not the default CA directory (CApath,
        // /etc/ssl/certs on Debian), so the system's authorities stay trusted next to the
        // organisation's own: a proxy may inspect some hosts and pass others through.
        // The same authority for an https:// proxy: a company that runs its own CA signs its
        // proxy's certificate with it too.
        curl_blob blob{const_cast<char*>(pem.constData()), size_t(pem.size()), CURL_BLOB_COPY};
        curl_easy_setopt(easy, CURLOPT_CAINFO_BLOB, &blob);
        curl_easy_setopt(easy, CURLOPT_PROXY_CAINFO_BLOB, &blob);
    } else {
        // Unreadable or empty: hand curl the path, so the transfer fails with
        // CURLE_SSL_CACERT_BADFILE naming the file instead of quietly trusting less.
        const QByteArray path = caFile.toLocal8Bit();
        curl_easy_setopt(easy, CURLOPT_CAINFO, path.constData());
        curl_easy_setopt(easy, CURLOPT_PROXY_CAINFO, path.constData());
    }
}

curl_slist* testResolveList()
{
    static curl_slist* list = [] {
        curl_slist* l = nullptr;
        const QByteArray spec = qgetenv("LIZARD_TEST_RESOLVE");
        for (const QByteArray& entry : spec.split(','))
            if (!entry.trimmed().isEmpty())
                l = curl_slist_append(l, entry.trimmed().constData());
        return l;
    }();
    return list;
}

} // namespace lizard::client
