#pragma once
// Fixture of the UI suites that drive the main window against a real lizard-local: the server,
// a client for it, and the window on it, shown with the `default` project current. Sandboxes
// made through it are killed by stop(), after the window has closed (its streams with it); the
// end of the server's log is printed when a test failed. Header-only: the support library
// links no Widgets, the UI suites that include this do.

#include "client/lizardapi.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/wait.h"
#include "ui/mainwindow.h"
#include "ui/projectpanel.h"

#include <QApplication>
#include <QTest>
#include <functional>
#include <memory>

namespace lizard::test {

class LiveWindow
{
public:
    struct Options
    {
        QStringList serverArgs;                     // extra arguments of lizard-local
        QSize size;                                 // empty: the window's own
        QStringList notes;                          // capability notes the window shows
        std::function<void(ui::MainWindow*)> setUp; // before the window is connected
    };

    // An error text, or empty once the window shows the default project.
    QString start(const Options& options)
    {
        if (!m_server.start(options.serverArgs))
            return QStringLiteral("lizard-local did not start: ") + m_server.errorString();
        m_api = std::make_unique<client::LizardApi>(
            client::Endpoint{m_server.url(), m_server.apiKey()});
        m_window = std::make_unique<ui::MainWindow>();
        if (options.setUp)
            options.setUp(m_window.get());
        m_window->setBackend(m_api.get(), "Local — " + m_server.url(), options.notes);
        if (!options.size.isEmpty())
            m_window->resize(options.size);
        m_window->show();
        QApplication::setActiveWindow(m_window.get());
        if (!QTest::qWaitForWindowActive(m_window.get()))
            return QStringLiteral("the window did not become active");
        if (!lizard::test::waitUntil([this] { return !defaultProjectId().isEmpty(); }, 10000))
            return QStringLiteral("the window did not show the default project");
        return {};
    }
    QString start() { return start(Options{}); }

    // The project the window shows, once it is `default`; empty before.
    QString defaultProjectId() const
    {
        ui::ProjectPanel* projects = m_window ? m_window->projectPanel() : nullptr;
        return projects && projects->currentProjectName() == u"default"
                   ? projects->currentProjectId()
                   : QString();
    }

    // A sandbox as `req` asks, in the default project unless it names one, killed by stop():
    // its id, or empty with the reason in *why (for LIZ_REQUIRE_SANDBOX).
    QString createSandbox(client::CreateSandboxRequest req, QString* why)
    {
        if (req.projectId.isEmpty())
            req.projectId = defaultProjectId();
        const QString id = startSandbox(*m_api, req, why);
        killOnStop(id);
        return id;
    }
    QString createSandbox(int lifetimeMs, QString* why)
    {
        client::CreateSandboxRequest req;
        req.timeoutMs = lifetimeMs;
        return createSandbox(req, why);
    }

    // Another sandbox of the suite's (made elsewhere, a fork say) that stop() kills too.
    void killOnStop(const QString& sandboxId)
    {
        if (!sandboxId.isEmpty() && !m_owned.contains(sandboxId))
            m_owned << sandboxId;
    }

    // Closes the window, then kills the suite's sandboxes.
    void stop()
    {
        m_window.reset();
        if (m_api) {
            for (const QString& id : std::as_const(m_owned))
                killSandbox(*m_api, id);
        }
        m_owned.clear();
        if (QTest::currentTestFailed())
            qWarning().noquote() << "lizard-local log (end):\n"
                                 << QString::fromUtf8(m_server.log().right(4000));
    }

    LocalServer& server() { return m_server; }
    client::LizardApi& api() const { return *m_api; }
    ui::MainWindow* window() const { return m_window.get(); }

private:
    LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;
    std::unique_ptr<ui::MainWindow> m_window;
    QStringList m_owned;
};

} // namespace lizard::test
