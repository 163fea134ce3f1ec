#pragma once
// Adds X-Lizard-Access-Token to the requests a preview makes to its exposure's origin (http
// and WebSocket), and to no other host: the token never shows in a URL and never leaks to
// other sites the page loads from.

#include <QByteArray>
#include <QUrl>
#include <QWebEngineUrlRequestInterceptor>

namespace lizard::ui::ports::webengine {

class TokenInterceptor : public QWebEngineUrlRequestInterceptor
{
    Q_OBJECT
public:
    TokenInterceptor(const QUrl& origin, const QByteArray& token, QObject* parent = nullptr);

    // Called on Chromium's IO thread: reads only members fixed at construction.
    void interceptRequest(QWebEngineUrlRequestInfo& info) override;
    bool appliesTo(const QUrl& url) const;

private:
    QString m_scheme;
    QString m_host;
    int m_port;
    QByteArray m_token;
};

} // namespace lizard::ui::ports::webengine
