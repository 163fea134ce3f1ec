#include "viewers.h"

#include "models/desktop/desktopsession.h"
#include "ui/desktop/screenpanel.h"
#include "vncview.h"

#include <QAction>
#include <QWidget>

namespace lizard::bench {

namespace {

class WebViewer : public Viewer
{
public:
    WebViewer(client::LizardApi* api, QString sandboxId)
        : m_api(api), m_sandboxId(std::move(sandboxId))
    {
    }

    QString name() const override { return QStringLiteral("web"); }

    bool prepare(const client::DesktopInfo&) override
    {
        // The tab of the app, showing the sandbox with its desktop stopped, as before Start.
        m_panel.setBackend(m_api);
        m_panel.showSandbox(m_sandboxId);
        m_panel.resize(kViewerSize);
        m_panel.show();
        return true;
    }
    void show(const client::DesktopInfo&) override {}
    bool startsDesktop() const override { return true; }
    void startDesktop(std::function<void(client::Outcome<client::DesktopInfo>)> answered) override
    {
        // Told once: the bench's callback refers to a start that is over after that.
        auto* once = new QObject(&m_panel);
        const auto tell = [once, answered](client::Outcome<client::DesktopInfo> o) {
            once->deleteLater();
            QObject::disconnect(once, nullptr, nullptr, nullptr);
            answered(std::move(o));
        };
        models::DesktopSession* session = m_panel.session();
        QObject::connect(session, &models::DesktopSession::failed, once,
                         [tell](const client::ApiError& e) { tell(e); });
        QObject::connect(session, &models::DesktopSession::changed, once, [session, tell] {
            if (session->isRunning() && !session->isBusy())
                tell(session->info());
        });
        m_panel.startAction()->trigger();
    }
    QWidget* widget() override { return &m_panel; }
    QString error() const override
    {
        return m_panel.showsScreen() ? QString() : m_panel.placeholderText();
    }

private:
    client::LizardApi* m_api;
    QString m_sandboxId;
    ui::desktop::ScreenPanel m_panel;
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

ViewerFactory webViewer(client::LizardApi* api, const QString& sandboxId)
{
    return [api, sandboxId] { return std::make_unique<WebViewer>(api, sandboxId); };
}

ViewerFactory nativeViewer()
{
    return [] { return std::make_unique<NativeViewer>(); };
}

} // namespace lizard::bench
