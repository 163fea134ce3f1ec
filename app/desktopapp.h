#pragma once
// The running app: settings, key store, connection controller and the main window, wired.

#include <QObject>
#include <memory>

namespace lizard::ui {
class MainWindow;
namespace notebook {
class NotebookController;
}
} // namespace lizard::ui

namespace lizard::app {

class ConnectionController;
class DesktopColorScheme;
class KeyStore;
class SettingsStore;

class DesktopApp : public QObject
{
    Q_OBJECT
public:
    DesktopApp(std::unique_ptr<SettingsStore> settings, KeyStore* keys, const QString& localDataDir,
               QObject* parent = nullptr);
    ~DesktopApp() override;

    void start(); // shows the window and connects to the active profile
    ui::MainWindow* window() const { return m_window.get(); }
    ui::notebook::NotebookController* notebooks() const { return m_notebooks; }
    ConnectionController* controller() const { return m_controller; }
    // The desktop's light or dark scheme, which the app follows unless Preferences say otherwise.
    DesktopColorScheme* colorScheme() const { return m_colorScheme; }

private:
    void editConnections();
    void editPreferences();

    std::unique_ptr<SettingsStore> m_settings;
    KeyStore* m_keys;
    ConnectionController* m_controller;
    std::unique_ptr<ui::MainWindow> m_window;
    ui::notebook::NotebookController* m_notebooks = nullptr;
    DesktopColorScheme* m_colorScheme = nullptr;
};

} // namespace lizard::app
