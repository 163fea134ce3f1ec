#include "outputscheme.h"

#include <QBuffer>
#include <QUuid>
#include <QWebEngineUrlRequestJob>
#include <QWebEngineUrlScheme>

namespace lizard::ui::ports::webengine {

void registerOutputScheme()
{
    static bool done = false;
    if (done)
        return;
    done = true;
    QWebEngineUrlScheme scheme(kOutputScheme);
    scheme.setSyntax(QWebEngineUrlScheme::Syntax::Path);
    // No LocalScheme, no LocalAccessAllowed, no CorsEnabled: the page can reach neither files
    // nor other schemes, and no other page can fetch from it.
    scheme.setFlags({});
    QWebEngineUrlScheme::registerScheme(scheme);
}

QUrl OutputSchemeHandler::serve(const QByteArray& html)
{
    m_url = QUrl(QString::fromLatin1(kOutputScheme) + QLatin1Char(':') +
                 QUuid::createUuid().toString(QUuid::WithoutBraces));
    m_document = wrapOutputDocument(html);
    return m_url;
}

void OutputSchemeHandler::requestStarted(QWebEngineUrlRequestJob* job)
{
    if (m_url.isEmpty() || job->requestUrl() != m_url || job->requestMethod() != "GET") {
        job->fail(QWebEngineUrlRequestJob::UrlNotFound);
        return;
    }
    auto* buffer = new QBuffer(job); // goes with the job
    buffer->setData(m_document);
    buffer->open(QIODevice::ReadOnly);
    job->reply(QByteArrayLiteral("text/html;charset=utf-8"), buffer);
}

QByteArray wrapOutputDocument(const QByteArray& html)
{
    static const QByteArray head = QByteArrayLiteral(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\">"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "script-src 'unsafe-inline' 'unsafe-eval' data: blob:; style-src 'unsafe-inline' data: "
        "blob:; "
        "img-src data: blob:; font-src data: blob:; media-src data: blob:; connect-src data: "
        "blob:; "
        "worker-src blob: data:; frame-src data: blob:; form-action 'none'; base-uri 'none'\">"
        "<style>html,body{margin:0;padding:0;background:#fff;color:#000;"
        "font-family:sans-serif;font-size:13px}</style></head><body>");
    return head + html + QByteArrayLiteral("</body></html>");
}

} // namespace lizard::ui::ports::webengine
