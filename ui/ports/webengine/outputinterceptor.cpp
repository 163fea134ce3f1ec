#include "outputinterceptor.h"

#include "outputscheme.h"

namespace lizard::ui::ports::webengine {

bool OutputInterceptor::allows(const QUrl& url)
{
    const QString scheme = url.scheme();
    return scheme == QLatin1String(kOutputScheme) || scheme == QLatin1String("data") ||
           scheme == QLatin1String("blob");
}

void OutputInterceptor::interceptRequest(QWebEngineUrlRequestInfo& info)
{
    if (!allows(info.requestUrl()))
        info.block(true);
}

} // namespace lizard::ui::ports::webengine
