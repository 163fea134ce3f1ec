#pragma once
// Blocks every request of an output's page that would leave it: http, https, ws, wss, file,
// ftp and any other scheme. Only the page's own document (lizard-output:) and what it carries
// inline (data:, blob:) load. There is no internet to rely on, and an untrusted page must not
// reach lizard-local, the sandboxes' ports or anything else on this machine.

#include <QWebEngineUrlRequestInterceptor>

namespace lizard::ui::ports::webengine {

class OutputInterceptor : public QWebEngineUrlRequestInterceptor
{
    Q_OBJECT
public:
    using QWebEngineUrlRequestInterceptor::QWebEngineUrlRequestInterceptor;

    // Stateless, so safe on whatever thread QtWebEngine calls it.
    void interceptRequest(QWebEngineUrlRequestInfo& info) override;
    static bool allows(const QUrl& url);
};

} // namespace lizard::ui::ports::webengine
