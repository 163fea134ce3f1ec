#include "outputpage.h"

#include <QDesktopServices>

namespace lizard::ui::ports::webengine {

namespace {

// Stands in for the window a target=_blank link (or a script answering a click) asks for: its
// first navigation goes to the system browser, then it goes away.
class ExternalWindow : public QWebEnginePage
{
public:
    using QWebEnginePage::QWebEnginePage;

protected:
    bool acceptNavigationRequest(const QUrl& url, NavigationType, bool) override
    {
        OutputPage::openExternally(url);
        deleteLater();
        return false;
    }
};

} // namespace

bool OutputPage::openExternally(const QUrl& url)
{
    const QString scheme = url.scheme();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https") &&
        scheme != QLatin1String("mailto"))
        return false;
    return QDesktopServices::openUrl(url);
}

bool OutputPage::userJustActed() const
{
    // Long enough for a click's navigation to arrive, short enough that a timer a script set
    // earlier will not ride on an unrelated click.
    return m_input.isValid() && m_input.elapsed() < 1000;
}

bool OutputPage::acceptNavigationRequest(const QUrl& url, NavigationType type, bool isMainFrame)
{
    if (isMainFrame && url == m_document)
        return true;
    // Frames the document builds from its own content (srcdoc, data:, blob:) stay inside it.
    const QString scheme = url.scheme();
    if (!isMainFrame && type != NavigationTypeLinkClicked &&
        (url.toString() == QLatin1String("about:blank") ||
         url.toString() == QLatin1String("about:srcdoc") || scheme == QLatin1String("data") ||
         scheme == QLatin1String("blob")))
        return true;
    if (type == NavigationTypeLinkClicked && userJustActed())
        openExternally(url);
    return false;
}

QWebEnginePage* OutputPage::createWindow(WebWindowType)
{
    if (!userJustActed())
        return nullptr;
    return new ExternalWindow(profile(), this);
}

} // namespace lizard::ui::ports::webengine
