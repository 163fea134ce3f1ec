#include "webpreviewview.h"

#include "tokeninterceptor.h"

#include <QVBoxLayout>
#include <QWebEngineHistory>
#include <QWebEnginePage>
#include <QWebEngineProfile>
#include <QWebEngineView>

namespace lizard::ui::ports::webengine {

WebPreviewView::WebPreviewView(const QUrl& origin, const QByteArray& token,
                               PreviewObserver* observer, QWidget* parent)
    : QWidget(parent), m_observer(observer),
      m_profile(new QWebEngineProfile(this)), // no storage name: off the record
      m_interceptor(new TokenInterceptor(origin, token, this)),
      m_page(new QWebEnginePage(m_profile)), m_view(new QWebEngineView(this))
{
    m_profile->setHttpCacheType(QWebEngineProfile::MemoryHttpCache);
    m_profile->setPersistentCookiesPolicy(QWebEngineProfile::NoPersistentCookies);
    m_profile->setUrlRequestInterceptor(m_interceptor);
    m_view->setPage(m_page);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    setFocusProxy(m_view);

    connect(m_page, &QWebEnginePage::urlChanged, this, [this](const QUrl& url) {
        if (m_observer) {
            m_observer->previewUrlChanged(url);
            m_observer->previewHistoryChanged();
        }
    });
    connect(m_page, &QWebEnginePage::titleChanged, this, [this](const QString& title) {
        if (m_observer)
            m_observer->previewTitleChanged(title);
    });
    connect(m_page, &QWebEnginePage::loadFinished, this, [this](bool ok) {
        if (m_observer) {
            m_observer->previewLoadFinished(ok);
            m_observer->previewHistoryChanged();
        }
    });
}

WebPreviewView::~WebPreviewView()
{
    // The page goes before its profile (QtWebEngine requires it); nothing is reported any more.
    m_observer = nullptr;
    delete m_view;
    delete m_page;
    delete m_profile;
}

void WebPreviewView::load(const QUrl& url)
{
    m_page->load(url);
}
void WebPreviewView::back()
{
    m_page->triggerAction(QWebEnginePage::Back);
}
void WebPreviewView::forward()
{
    m_page->triggerAction(QWebEnginePage::Forward);
}
void WebPreviewView::reload()
{
    m_page->triggerAction(QWebEnginePage::Reload);
}
bool WebPreviewView::canGoBack() const
{
    return m_page->history()->canGoBack();
}
bool WebPreviewView::canGoForward() const
{
    return m_page->history()->canGoForward();
}
QUrl WebPreviewView::url() const
{
    return m_page->url();
}
QString WebPreviewView::title() const
{
    return m_page->title();
}

void WebPreviewView::runJavaScript(const QString& script, std::function<void(const QString&)> done)
{
    m_page->runJavaScript(script, [done = std::move(done)](const QVariant& result) {
        if (done)
            done(result.toString());
    });
}

} // namespace lizard::ui::ports::webengine
