#pragma once
// The page of an output view: it may show its own document and nothing else. A link the user
// clicks (in the page or with target=_blank) opens in the system browser; every other
// navigation (scripts setting location, forms, redirects, meta refresh) is refused.
// QtWebEngine reports a script's navigation as a clicked link too, so "the user clicked" means
// a link navigation within a moment of the user's click or key in the view (noteUserInput).

#include <QElapsedTimer>
#include <QWebEnginePage>

namespace lizard::ui::ports::webengine {

class OutputPage : public QWebEnginePage
{
    Q_OBJECT
public:
    using QWebEnginePage::QWebEnginePage;

    void setDocumentUrl(const QUrl& url) { m_document = url; }
    void noteUserInput() { m_input.start(); }
    bool userJustActed() const;

    // Opens a clicked link outside (http, https, mailto); false for anything else.
    static bool openExternally(const QUrl& url);

protected:
    bool acceptNavigationRequest(const QUrl& url, NavigationType type, bool isMainFrame) override;
    QWebEnginePage* createWindow(WebWindowType type) override;
    // Dropped: an untrusted page could fill the app's log (refused requests are logged too).
    void javaScriptConsoleMessage(JavaScriptConsoleMessageLevel, const QString&, int,
                                  const QString&) override
    {
    }

private:
    QUrl m_document;
    QElapsedTimer m_input;
};

} // namespace lizard::ui::ports::webengine
