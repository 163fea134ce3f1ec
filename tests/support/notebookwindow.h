#pragma once
// Fixture of the UI suites that drive notebooks against a real lizard-local: a LiveWindow (the
// server, a client, the main window) with a NotebookController on the window, and an
// `interpreter` sandbox (or none). stop() cleans every notebook first (no question about unsaved
// changes). Header-only, like LiveWindow.

#include "client/lizardapi.h"
#include "notebook/notebookdocument.h"
#include "notebook/recoverystore.h"
#include "support/livewindow.h"
#include "support/wait.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookpage.h"

#include <QTemporaryDir>

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
        LiveWindow::Options window;
        window.size = options.size;
        window.setUp = [this](ui::MainWindow* w) {
            m_controller = new ui::notebook::NotebookController(
                w->workbench(), notebook::RecoveryStore(m_recovery.path()), w);
        };
        if (const QString failed = m_live.start(window); !failed.isEmpty())
            return failed;
        if (!options.templateName.isEmpty()) {
            client::CreateSandboxRequest req;
            req.templateName = options.templateName;
            req.timeoutMs = options.lifetimeMs;
            QString why;
            m_sandboxId = m_live.createSandbox(req, &why);
            if (m_sandboxId.isEmpty())
                return QStringLiteral("create sandbox: ") + why;
        }
        return {};
    }
    QString start() { return start(Options{}); }

    void killOnStop(const QString& sandboxId) { m_live.killOnStop(sandboxId); }

    void stop()
    {
        if (m_live.window()) {
            for (ui::notebook::NotebookPage* page : m_controller->pages())
                page->document()->setClean();
        }
        m_live.stop();
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
        (void)lizard::test::waitUntil(
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

    LocalServer& server() { return m_live.server(); }
    client::LizardApi& api() { return m_live.api(); }
    ui::MainWindow* window() const { return m_live.window(); }
    ui::notebook::NotebookController* controller() const { return m_controller; }
    QString projectId() const { return m_live.defaultProjectId(); }
    QString sandboxId() const { return m_sandboxId; }
    QString recoveryDir() const { return m_recovery.path(); }

private:
    QTemporaryDir m_recovery;
    LiveWindow m_live;
    ui::notebook::NotebookController* m_controller = nullptr;
    QString m_sandboxId;
};

} // namespace lizard::test
