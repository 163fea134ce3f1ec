#include "webpreviewplugin.h"

#include "webpreviewview.h"

#include <QWebEngineProfile>
#include <QtWebEngineCore/qtwebenginecoreversion.h>

namespace lizard::ui::ports::webengine {

PreviewView* WebPreviewPlugin::createView(const QUrl& origin, const QByteArray& token, PreviewObserver* observer,
                                          QWidget* parent)
{
    return new WebPreviewView(origin, token, observer, parent);
}

QString WebPreviewPlugin::engineVersion() const
{
    return QStringLiteral("QtWebEngine %1").arg(QStringLiteral(QTWEBENGINECORE_VERSION_STR));
}

} // namespace lizard::ui::ports::webengine
