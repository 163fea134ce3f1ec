#pragma once
// The Ports tab of the selected sandbox: the ports its processes listen on and those this app
// exposed (PortListModel), refreshed every few seconds while the tab is visible. Actions on
// the selected port: Preview (exposes it if needed and opens a PreviewPage tab), Unexpose,
// Copy URL and Open in browser (both hand out the link with its access token, exposing
// first if needed), Expose port… (any port, listening or not) and Refresh.

#include "client/outcome.h"

#include <QPointer>
#include <QWidget>
#include <functional>

class QAction;
class QLabel;
class QTableView;

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {
class ExposureList;
class PortListModel;
} // namespace lizard::models

namespace lizard::ui {
class DocumentTabs;
}

namespace lizard::ui::ports {

class PreviewPage;

class PortsPanel : public QWidget
{
    Q_OBJECT
public:
    // Previews open in `documents` (not owned; may be null: previews then open as windows).
    explicit PortsPanel(DocumentTabs* documents, QWidget* parent = nullptr);

    void setBackend(client::LizardApi* api);    // not owned; null: disconnected
    void showSandbox(const QString& sandboxId); // empty: placeholder

    QString sandboxId() const { return m_sandboxId; }
    models::PortListModel* model() const { return m_model; }
    models::ExposureList* exposures() const { return m_exposures; }
    QTableView* view() const { return m_view; }
    QString statusText() const;
    int currentPort() const; // 0: none selected
    void selectPort(int port);

    QAction* previewAction() const { return m_preview; }
    QAction* unexposeAction() const { return m_unexpose; }
    QAction* copyUrlAction() const { return m_copyUrl; }
    QAction* openInBrowserAction() const { return m_openExternal; }
    QAction* exposeAction() const { return m_expose; }
    QAction* refreshAction() const { return m_refresh; }

    // The actions, by port (the buttons act on the selected port).
    void previewPort(int port);
    void unexposePort(int port);
    void copyUrl(int port);
    void openInBrowser(int port);

signals:
    void previewOpened(lizard::ui::ports::PreviewPage* page);
    void errorOccurred(const lizard::client::ApiError& error);
    void message(const QString& text);

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;

private:
    void withExposure(int port, std::function<void(const client::ExposedPort&)> then);
    PreviewPage* openPreviewFor(int port) const;
    void exposePrompt();
    void updateActions();
    void updateStatus();
    void showContextMenu(const QPoint& pos);

    QPointer<DocumentTabs> m_documents;
    client::LizardApi* m_api = nullptr; // handed to the models; valid until the next setBackend
    models::PortListModel* m_model;
    models::ExposureList* m_exposures = nullptr;
    QString m_sandboxId;
    QTableView* m_view;
    QLabel* m_status;
    QString m_lastError;
    QAction* m_preview;
    QAction* m_unexpose;
    QAction* m_copyUrl;
    QAction* m_openExternal;
    QAction* m_expose;
    QAction* m_refresh;
};

} // namespace lizard::ui::ports
