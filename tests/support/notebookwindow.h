#pragma once
// Fixture of the UI suites that drive notebooks against a real lizard-local: the server, a
// client for it, an `interpreter` sandbox (or none), and the main window with a
// NotebookController on it, shown and active. stop() cleans every notebook (no question about
// unsaved changes), closes the window, kills the sandboxes the suite made and prints the end of
// the server's log when a test failed. Header-only: the support library links no Widgets.

#include "client/lizardapi.h"
#include "notebook/notebookdocument.h"
#include "notebook/recoverystore.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "ui/mainwindow.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookpage.h"

#include <QApplication>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

namespace lizard::test {

class NotebookWindow
{
public:
    struct Options
    {
        QString templateName = QStringLiteral("interpreter"); // empty: no sandbox is made
        int lifetimeMs = 1800000;
        QSize size{1200, 900};
    };

    // An error text, or empty when the server, the sandbox and the window are up.
    QString start(const Options& options)
    {
        if (!m_server.start())
            return QStringLiteral("lizard-local did not start: ") + m_server.errorString();
        m_api = std::make_unique<client::LizardApi>(
            client::Endpoint{m_server.url(), m_server.apiKey()});
        const auto projects = waitFor<QList<client::Project>>(
            [this](QObject* ctx, auto done) { return m_api->listProjects(ctx, done); });
        if (!projects || !projects->ok() || projects->value().isEmpty())
            return QStringLiteral("no project");
        m_projectId = projects->value().first().id;
        if (!options.templateName.isEmpty()) {
            client::CreateSandboxRequest req;
            req.projectId = m_projectId;
            req.templateName = options.templateName;
            req.timeoutMs = options.lifetimeMs;
            QString why;
            m_sandboxId = startSandbox(*m_api, req, &why);
            if (m_sandboxId.isEmpty())
                return QStringLiteral("create sandbox: ") + why;
            killOnStop(m_sandboxId);
        }
        m_window = std::make_unique<ui::MainWindow>();
        m_controller = new ui::notebook::NotebookController(
            m_window.get(), notebook::RecoveryStore(m_recovery.path()), m_window.get());
        m_window->setBackend(m_api.get(), "Local — " + m_server.url(), {});
        m_window->resize(options.size);
        m_window->show();
        QApplication::setActiveWindow(m_window.get());
        if (!QTest::qWaitForWindowActive(m_window.get()))
            return QStringLiteral("the window did not become active");
        return {};
    }
    QString start() { return start(Options{}); }

    // Another sandbox of the suite's (a fork, say) that stop() kills too.
    void killOnStop(const QString& sandboxId)
    {
        if (!sandboxId.isEmpty() && !m_owned.contains(sandboxId))
            m_owned << sandboxId;
    }

    void stop()
    {
        if (m_window) {
            for (ui::notebook::NotebookPage* page : m_controller->pages())
                page->document()->setClean();
            m_window.reset(); // closes the runners' streams
        }
        if (m_api) {
            for (const QString& id : m_owned)
                killSandbox(*m_api, id);
        }
        m_owned.clear();
        if (QTest::currentTestFailed())
            qWarning().noquote() << "lizard-local log (end):\n"
                                 << QString::fromUtf8(m_server.log().right(4000));
    }

    // Types code into the page's current cell, as one paste (no auto-indent).
    static void type(ui::notebook::NotebookPage* page, const QString& code)
    {
        ui::notebook::CellListWidget* list = page->cells();
        list->enterEditMode();
        ui::notebook::CellEditor* editor = list->currentWidget()->editor();
        QTRY_VERIFY(editor->hasFocus());
        editor->setPlainText(code);
    }

    // Shift+Enter on the page's current cell, then waits until that cell's run has ended.
    static ui::notebook::CellWidget* run(ui::notebook::NotebookPage* page,
                                         int timeoutMs = kRunTimeoutMs)
    {
        ui::notebook::CellWidget* cell = page->cells()->currentWidget();
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return, Qt::ShiftModifier);
        (void)QTest::qWaitFor(
            [cell] {
                const notebook::CellStatus s = cell->cell()->status();
                return s == notebook::CellStatus::Done || s == notebook::CellStatus::Error ||
                       s == notebook::CellStatus::Interrupted;
            },
            timeoutMs);
        return cell;
    }

    // The first run starts a kernel in a fresh sandbox.
    static constexpr int kRunTimeoutMs = 180000;

    LocalServer& server() { return m_server; }
    client::LizardApi& api() { return *m_api; }
    ui::MainWindow* window() const { return m_window.get(); }
    ui::notebook::NotebookController* controller() const { return m_controller; }
    QString projectId() const { return m_projectId; }
    QString sandboxId() const { return m_sandboxId; }
    QString recoveryDir() const { return m_recovery.path(); }

private:
    LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::notebook::NotebookController* m_controller = nullptr;
    QTemporaryDir m_recovery;
    QString m_projectId;
    QString m_sandboxId;
    QStringList m_owned;
};

} // namespace lizard::test
