#include "viewers.h"

#include "models/desktop/screenaddress.h"
#include "ui/ports/previewengine.h"
#include "ui/ports/previewloader.h"
#include "vncview.h"

#include <QWidget>

namespace lizard::bench {

namespace {

class WebViewer : public Viewer, public ui::ports::PreviewObserver
{
public:
    ~WebViewer() override { delete m_widget; } // before this observer goes

    QString name() const override { return QStringLiteral("web"); }

    bool prepare(const client::DesktopInfo& stopped) override
    {
        ui::ports::PreviewEngine* engine = ui::ports::PreviewLoader::engine();
        if (!engine) {
            m_error = QStringLiteral("no web engine: ") + ui::ports::PreviewLoader::errorString();
            return false;
        }
        const QUrl url = models::ScreenAddress::viewerUrl(stopped, false);
        m_view = engine->createView(models::ScreenAddress::origin(url),
                                    models::ScreenAddress::token(url), this, nullptr);
        m_widget = m_view->widget();
        m_widget->resize(kViewerSize);
        m_widget->show();
        return true;
    }
    void show(const client::DesktopInfo& running) override
    {
        m_view->load(models::ScreenAddress::viewerUrl(running, false));
    }
    QWidget* widget() override { return m_widget; }
    QString error() const override { return m_error; }

    void previewUrlChanged(const QUrl&) override {}
    void previewTitleChanged(const QString&) override {}
    void previewLoadFinished(bool ok) override
    {
        if (!ok)
            m_error = QStringLiteral("the viewer page did not load");
    }
    void previewHistoryChanged() override {}

private:
    ui::ports::PreviewView* m_view = nullptr;
    QWidget* m_widget = nullptr;
    QString m_error;
};

class NativeViewer : public Viewer
{
public:
    QString name() const override { return QStringLiteral("native"); }
    bool prepare(const client::DesktopInfo&) override
    {
        m_view.resize(kViewerSize);
        m_view.show();
        return true;
    }
    void show(const client::DesktopInfo& running) override { m_view.open(running.viewOnlyUrl); }
    QWidget* widget() override { return &m_view; }
    QString error() const override { return m_view.error(); }

private:
    VncView m_view;
};

} // namespace

std::unique_ptr<Viewer> makeWebViewer()
{
    return std::make_unique<WebViewer>();
}

std::unique_ptr<Viewer> makeNativeViewer()
{
    return std::make_unique<NativeViewer>();
}

} // namespace lizard::bench
