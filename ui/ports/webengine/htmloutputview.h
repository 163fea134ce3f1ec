#pragma once
// An HTML output whose scripts run (a Plotly chart, Bokeh, a widget with its library inline),
// isolated: its own off-the-record profile, the OutputInterceptor (no network, no files), the
// lizard-output: scheme for its document, an OutputPage for navigation, no web channel.

#include "ui/ports/previewengine.h"

#include <QWidget>

class QTimer;
class QWebEngineProfile;
class QWebEngineView;

namespace lizard::ui::ports::webengine {

class OutputInterceptor;
class OutputPage;
class OutputSchemeHandler;

class HtmlOutputView : public QWidget, public HtmlView
{
    Q_OBJECT
public:
    HtmlOutputView(HtmlObserver* observer, QWidget* parent);
    ~HtmlOutputView() override;

    QWidget* widget() override { return this; }
    void setHtml(const QByteArray& html) override;
    void runJavaScript(const QString& script, std::function<void(const QString&)> done) override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void measure();

    HtmlObserver* m_observer;
    QWebEngineProfile* m_profile;
    OutputInterceptor* m_interceptor;
    OutputSchemeHandler* m_scheme;
    OutputPage* m_page;
    QWebEngineView* m_view;
    QTimer* m_measure;
    int m_measurements = 0;
};

} // namespace lizard::ui::ports::webengine
