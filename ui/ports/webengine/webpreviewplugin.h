#pragma once
// lizard_preview: the plugin PreviewLoader loads on the first preview or interactive output. It is
// the only code that links QtWebEngine, so the app starts without it.

#include "ui/ports/previewengine.h"

#include <QObject>

namespace lizard::ui::ports::webengine {

class WebPreviewPlugin : public QObject, public PreviewEngine
{
    Q_OBJECT
    Q_PLUGIN_METADATA(IID LizardPreviewEngine_iid)
    Q_INTERFACES(lizard::ui::ports::PreviewEngine)
public:
    WebPreviewPlugin();
    PreviewView* createView(const QUrl& origin, const QByteArray& token, PreviewObserver* observer,
                            QWidget* parent) override;
    HtmlView* createHtmlView(HtmlObserver* observer, QWidget* parent) override;
    QString engineVersion() const override;
};

} // namespace lizard::ui::ports::webengine
