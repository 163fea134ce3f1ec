#include "htmloutputview.h"

#include "outputinterceptor.h"
#include "outputpage.h"
#include "outputscheme.h"

#include <QChildEvent>
#include <QTimer>
#include <QVBoxLayout>
#include <QWebEngineLoadingInfo>
#include <QWebEngineProfile>
#include <QWebEngineSettings>
#include <QWebEngineView>

namespace lizard::ui::ports::webengine {

namespace {

// Scripts keep drawing after the load (Plotly lays out, Vega renders asynchronously): the
// height is asked again at these delays after the load, in ms.
constexpr int kMeasureDelays[] = {0, 150, 500, 1500, 4000};

void lockDown(QWebEngineSettings* s)
{
    s->setAttribute(QWebEngineSettings::LocalContentCanAccessRemoteUrls, false);
    s->setAttribute(QWebEngineSettings::LocalContentCanAccessFileUrls, false);
    s->setAttribute(QWebEngineSettings::JavascriptCanOpenWindows, false);
    s->setAttribute(QWebEngineSettings::JavascriptCanAccessClipboard, false);
    s->setAttribute(QWebEngineSettings::JavascriptCanPaste, false);
    s->setAttribute(QWebEngineSettings::PluginsEnabled, false);
    s->setAttribute(QWebEngineSettings::PdfViewerEnabled, false);
    s->setAttribute(QWebEngineSettings::FullScreenSupportEnabled, false);
    s->setAttribute(QWebEngineSettings::ScreenCaptureEnabled, false);
    s->setAttribute(QWebEngineSettings::WebGLEnabled, true); // Plotly's 3D and scattergl need it
    s->setAttribute(QWebEngineSettings::AllowRunningInsecureContent, false);
    s->setAttribute(QWebEngineSettings::AllowGeolocationOnInsecureOrigins, false);
    s->setAttribute(QWebEngineSettings::ErrorPageEnabled, false);
    s->setAttribute(QWebEngineSettings::FocusOnNavigationEnabled, false);
    s->setAttribute(QWebEngineSettings::DnsPrefetchEnabled, false);
}

} // namespace

HtmlOutputView::HtmlOutputView(HtmlObserver* observer, QWidget* parent)
    : QWidget(parent), m_observer(observer),
      m_profile(new QWebEngineProfile(this)), // no storage name: off the record
      m_interceptor(new OutputInterceptor(this)), m_scheme(new OutputSchemeHandler(this)),
      m_page(new OutputPage(m_profile)), m_view(new QWebEngineView(this)),
      m_measure(new QTimer(this))
{
    m_profile->setHttpCacheType(QWebEngineProfile::MemoryHttpCache);
    m_profile->setPersistentCookiesPolicy(QWebEngineProfile::NoPersistentCookies);
    m_profile->setSpellCheckEnabled(false);
    m_profile->setUrlRequestInterceptor(m_interceptor);
    m_profile->installUrlSchemeHandler(kOutputScheme, m_scheme);
    lockDown(m_page->settings());
    m_view->setPage(m_page);
    m_view->setContextMenuPolicy(Qt::NoContextMenu); // its Back/Reload/View source lead nowhere
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    setFocusProxy(m_view);
    // The user's clicks and keys reach the view's render widget, a child QtWebEngine adds.
    m_view->installEventFilter(this);
    for (QObject* child : m_view->children())
        child->installEventFilter(this);

    m_measure->setSingleShot(true);
    connect(m_measure, &QTimer::timeout, this, &HtmlOutputView::measure);
    // Only the document's own load counts: a refused navigation ends in a failed load too.
    connect(m_page, &QWebEnginePage::loadingChanged, this,
            [this](const QWebEngineLoadingInfo& info) {
                if (info.url() != m_scheme->url() ||
                    info.status() == QWebEngineLoadingInfo::LoadStartedStatus)
                    return;
                const bool ok = info.status() == QWebEngineLoadingInfo::LoadSucceededStatus;
                if (m_observer)
                    m_observer->htmlLoadFinished(ok);
                m_measurements = 0;
                m_measure->start(kMeasureDelays[0]);
            });
}

HtmlOutputView::~HtmlOutputView()
{
    // The page goes before its profile (QtWebEngine requires it); nothing is reported any more.
    m_observer = nullptr;
    delete m_view;
    delete m_page;
    delete m_profile;
}

bool HtmlOutputView::eventFilter(QObject* watched, QEvent* event)
{
    switch (event->type()) {
    case QEvent::ChildAdded:
        if (watched == m_view)
            static_cast<QChildEvent*>(event)->child()->installEventFilter(this);
        break;
    case QEvent::MouseButtonRelease:
    case QEvent::KeyPress:
        m_page->noteUserInput();
        break;
    default:
        break;
    }
    return QWidget::eventFilter(watched, event);
}

void HtmlOutputView::setHtml(const QByteArray& html)
{
    const QUrl url = m_scheme->serve(html);
    m_page->setDocumentUrl(url);
    m_page->load(url);
}

void HtmlOutputView::measure()
{
    // The document's own height, not the viewport's (scrollHeight of <html> is at least the
    // viewport); body.scrollHeight adds what overflows the body.
    static const QString script =
        QStringLiteral("Math.ceil(Math.max(document.documentElement.getBoundingClientRect().height,"
                       " document.body ? document.body.scrollHeight : 0))");
    m_page->runJavaScript(script, [this](const QVariant& result) {
        bool ok = false;
        const int height = result.toInt(&ok);
        if (ok && m_observer)
            m_observer->htmlContentHeight(height);
    });
    if (++m_measurements < int(std::size(kMeasureDelays)))
        m_measure->start(kMeasureDelays[m_measurements] - kMeasureDelays[m_measurements - 1]);
}

void HtmlOutputView::runJavaScript(const QString& script, std::function<void(const QString&)> done)
{
    m_page->runJavaScript(script, [done = std::move(done)](const QVariant& result) {
        if (done)
            done(result.toString());
    });
}

} // namespace lizard::ui::ports::webengine
