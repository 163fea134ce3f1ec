#pragma once
// The app as `make run` wires it (DesktopApp: the window, its menus, the notebook controller)
// on a real lizard-local, for the UI suite that walks through the user guide. It does what a
// user does between the guide's steps (the home tab, a console command) and says whether the
// window shows an error, which no picture of the guide should.

#include "support/localserver.h"

#include <QApplication>
#include <QString>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

class QWidget;

namespace lizard::app {
class DesktopApp;
}
namespace lizard::ui {
class MainWindow;
}

namespace lizard::test {

class GuideApp
{
public:
    GuideApp();
    ~GuideApp();

    QString start(); // lizard-local, then the app found it; an error text, or empty
    void stop();     // closes the app without asking about unsaved notebooks or files

    app::DesktopApp* app() const { return m_app.get(); }
    ui::MainWindow* window() const;
    LocalServer& server() { return m_server; }
    QString settingsFile() const { return m_tmp.filePath(QStringLiteral("settings.ini")); }

    // Gives the window the keyboard again: offscreen, a closed dialog leaves no window active.
    bool activate();
    // The home tab (Sandboxes), `sandboxId` selected and the tool tab `tool` shown (or none).
    void showHome(const QString& sandboxId, QWidget* tool);
    // Types a command into the selected sandbox's console; its part of the console afterwards
    // (from "$ command" to "[exit N]" when waited for).
    QString runInConsole(const QString& command, bool waitForExit = true);
    QString statusShown(const QString& sandboxId) const; // the Status column's text
    bool noErrorShown() const; // false (and the text logged) while an error banner shows

    // Before the application exists: what lizard-desktop's main() sets, and XDG folders under
    // `home` so that the app's settings, recovery copies and server log stay out of the user's.
    static void prepare(const QString& home);
    static void nameApplication(); // after: the names the app's settings paths derive from

private:
    QTemporaryDir m_tmp;
    LocalServer m_server;
    std::unique_ptr<app::DesktopApp> m_app;
};

// main() of a guide suite.
template <class Test> int guideMain(int argc, char** argv)
{
    QTemporaryDir home;
    GuideApp::prepare(home.path());
    QApplication app(argc, argv);
    GuideApp::nameApplication();
    Test test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace lizard::test
