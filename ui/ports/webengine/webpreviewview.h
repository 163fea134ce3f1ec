#pragma once
// The preview's browser: a QWebEngineView on its own off-the-record profile (cookies, cache
// and storage in memory, gone with the view, never shared with another preview), with the
// TokenInterceptor for its exposure.

#include "ui/ports/previewengine.h"

#include <QWidget>

class QWebEnginePage;
class QWebEngineProfile;
class QWebEngineView;

namespace lizard::ui::ports::webengine {

class TokenInterceptor;

class WebPreviewView : public QWidget, public PreviewView
{
    Q_OBJECT
public:
    WebPreviewView(const QUrl& origin, const QByteArray& token, PreviewObserver* observer,
                   QWidget* parent);
    ~WebPreviewView() override;

    QWidget* widget() override { return this; }
    void load(const QUrl& url) override;
    void back() override;
    void forward() override;
    void reload() override;
    bool canGoBack() const override;
    bool canGoForward() const override;
    QUrl url() const override;
    QString title() const override;
    void runJavaScript(const QString& script, std::function<void(const QString&)> done) override;

private:
    PreviewObserver* m_observer;
    QWebEngineProfile* m_profile;
    TokenInterceptor* m_interceptor;
    QWebEnginePage* m_page;
    QWebEngineView* m_view;
};

} // namespace lizard::ui::ports::webengine
