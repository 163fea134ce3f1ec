#pragma once
// The lizard-output: scheme that serves an HTML output to its view. setHtml would do for small
// documents, but it goes through a data: URL limited to 2 MB, and a chart with its library
// embedded (plotly.js) is several times that. Each document gets a URL of its own,
// lizard-output:<uuid>; the scheme has path syntax, so the page's origin is opaque: it shares
// nothing with any other output and is not same-origin with anything.

#include <QByteArray>
#include <QUrl>
#include <QWebEngineUrlSchemeHandler>

namespace lizard::ui::ports::webengine {

inline constexpr char kOutputScheme[] = "lizard-output";

// Registers the scheme with QtWebEngine. It must run before QtWebEngine starts (the first
// profile or page is created), and only once: the plugin's constructor calls it.
void registerOutputScheme();

// Answers the one URL of its view's current document; every other lizard-output: URL fails.
class OutputSchemeHandler : public QWebEngineUrlSchemeHandler
{
    Q_OBJECT
public:
    using QWebEngineUrlSchemeHandler::QWebEngineUrlSchemeHandler;

    // A fresh URL for `html`; the previous document is no longer served.
    QUrl serve(const QByteArray& html);
    QUrl url() const { return m_url; }

    void requestStarted(QWebEngineUrlRequestJob* job) override;

private:
    QUrl m_url;
    QByteArray m_document;
};

// The page around an output: a Content-Security-Policy that lets inline scripts, styles and
// data:/blob: resources in and nothing else (a second wall behind the request interceptor),
// and no margins, so that the measured height is the content's.
QByteArray wrapOutputDocument(const QByteArray& html);

} // namespace lizard::ui::ports::webengine
