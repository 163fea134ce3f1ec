#pragma once
// The Screen tab of the selected sandbox: its desktop, live. Start (at a chosen size) and Stop;
// the screen scaled to the tab with its aspect ratio kept; Take control, off by default: while
// off the view shows the view-only stream (the server refuses input on it, and the page takes
// none); while on, mouse and keyboard go to the sandbox and an orange border and banner say so.
// Screenshot… saves a PNG at the desktop's own size; Open in browser hands out the shown stream's
// link (it carries its credentials). Sandboxes of other templates get an explanation.
// The view is the web preview plugin (QtWebEngine) on the server's viewer page.

#include "client/outcome.h"
#include "ui/ports/previewengine.h"

#include <QPointer>
#include <QWidget>

class QAction;
class QComboBox;
class QFrame;
class QLabel;
class QStackedWidget;
class QVBoxLayout;

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {
class DesktopSession;
}

namespace lizard::ui::desktop {

class ScreenPanel : public QWidget, private ports::PreviewObserver
{
    Q_OBJECT
public:
    explicit ScreenPanel(QWidget* parent = nullptr);
    ~ScreenPanel() override;

    void setBackend(client::LizardApi* api);    // not owned; null: disconnected
    void showSandbox(const QString& sandboxId); // empty: placeholder

    models::DesktopSession* session() const { return m_session; }
    QAction* startAction() const { return m_start; }
    QAction* stopAction() const { return m_stop; }
    QAction* controlAction() const { return m_control; }
    QAction* screenshotAction() const { return m_screenshot; }
    QAction* openInBrowserAction() const { return m_openExternal; }
    QComboBox* sizeBox() const { return m_size; }
    QSize chosenSize() const;
    bool hasControl() const;
    QString statusText() const;
    QString placeholderText() const;
    bool showsScreen() const; // the viewer, not the placeholder
    // The viewer widget (null while none): what the user sees of the screen.
    QWidget* screenWidget() const { return m_viewWidget; }
    ports::PreviewView* viewer() const { return m_view; }
    QUrl viewerUrl() const { return m_loadedUrl; } // what the viewer loaded (credentials included)
    QFrame* screenFrame() const { return m_frame; }

    void setControl(bool on);
    // Takes a screenshot and writes it to `path`; false (and message()) on failure, via done.
    void saveScreenshotTo(const QString& path, std::function<void(bool ok)> done = {});

signals:
    void viewerLoaded(bool ok);
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

protected:
    bool event(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void previewUrlChanged(const QUrl&) override {}
    void previewTitleChanged(const QString&) override {}
    void previewLoadFinished(bool ok) override;
    void previewHistoryChanged() override {}

    void showState(); // the widgets for the session's state
    void showViewer(const QUrl& url);
    void dropViewer();
    void styleFrame();
    void selectSize(QSize size); // added to the list when it is not there
    void askScreenshot();
    bool writeScreenshot(const QString& path, const QByteArray& png);

    models::DesktopSession* m_session;
    QAction* m_start;
    QAction* m_stop;
    QAction* m_control;
    QAction* m_screenshot;
    QAction* m_openExternal;
    QComboBox* m_size;
    QLabel* m_status;
    QLabel* m_banner;
    QLabel* m_placeholder;
    QStackedWidget* m_stack;
    QFrame* m_frame;
    QVBoxLayout* m_frameLayout;
    ports::PreviewView* m_view = nullptr;
    QWidget* m_viewWidget = nullptr;
    QUrl m_loadedUrl;
};

} // namespace lizard::ui::desktop
