#include "webpreviewplugin.h"

#include "htmloutputview.h"
#include "outputscheme.h"
#include "webpreviewview.h"

#include <QWebEngineProfile>
#include <QtWebEngineCore/qtwebenginecoreversion.h>

namespace lizard::ui::ports::webengine {

// QtWebEngine reads its scheme registry once, when it starts: that is when the first profile or
// page is made, and only this plugin makes them, after PreviewLoader has built this object. So
// the constructor is early enough, and main() need not know about QtWebEngine.
WebPreviewPlugin::WebPreviewPlugin()
{
    registerOutputScheme();
}

PreviewView* WebPreviewPlugin::createView(const QUrl& origin, const QByteArray& token,
                                          PreviewObserver* observer, QWidget* parent)
{
    return new WebPreviewView(origin, token, observer, parent);
}

HtmlView* WebPreviewPlugin::createHtmlView(HtmlObserver* observer, QWidget* parent)
{
    return new HtmlOutputView(observer, parent);
}

QString WebPreviewPlugin::engineVersion() const
{
    return QStringLiteral("QtWebEngine %1").arg(QStringLiteral(QTWEBENGINECORE_VERSION_STR));
}

} // namespace lizard::ui::ports::webengine
