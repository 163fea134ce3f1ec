#pragma once
// A document tab showing a sandbox's exposed port in the app's own browser (QtWebEngine, from
// the lizard_preview plugin): back, forward, reload, an address field, Open in browser and
// Copy URL. The page is loaded without the access token; the plugin sends it as a header to
// the exposure's origin only, so the address field never shows it. Copy URL and Open in
// browser hand out the current address *with* ?lizard_token=…: that is the link that works in
// another browser or program (the page says so).

#include "client/types.h"
#include "models/previewaddress.h"
#include "ui/documentpage.h"
#include "ui/ports/previewengine.h"

class QAction;
class QLabel;
class QLineEdit;
class QToolBar;

namespace lizard::ui::ports {

class PreviewPage : public DocumentPage, private PreviewObserver
{
    Q_OBJECT
public:
    // Loads the plugin if needed; without it the page says why (Open in browser still works).
    PreviewPage(const QString& sandboxId, const client::ExposedPort& exposure,
                QWidget* parent = nullptr);
    ~PreviewPage() override;

    QString title() const override;
    QString toolTip() const override;
    QString sandboxId() const override { return m_sandboxId; }

    int sandboxPort() const { return m_address.sandboxPort(); }
    bool hasBrowser() const { return m_view != nullptr; }
    PreviewView* browser() const { return m_view; }
    QString pageTitle() const { return m_pageTitle; }
    QUrl currentUrl() const; // without the token
    QUrl shareableUrl() const;
    bool isLoading() const { return m_loading; }

    QLineEdit* addressField() const { return m_addressField; }
    QAction* backAction() const { return m_back; }
    QAction* forwardAction() const { return m_forward; }
    QAction* reloadAction() const { return m_reload; }
    QAction* openInBrowserAction() const { return m_openExternal; }
    QAction* copyUrlAction() const { return m_copy; }

    void navigate(const QString& typed); // what the address field does on Return
    void copyUrl();
    void openInBrowser();

signals:
    void loadFinished(bool ok);
    void message(const QString& text);

private:
    void previewUrlChanged(const QUrl& url) override;
    void previewTitleChanged(const QString& title) override;
    void previewLoadFinished(bool ok) override;
    void previewHistoryChanged() override;
    void showAddress(const QUrl& url);

    QString m_sandboxId;
    models::PreviewAddress m_address;
    PreviewView* m_view = nullptr;
    QWidget* m_viewWidget = nullptr;
    QString m_pageTitle;
    bool m_loading = false;
    QToolBar* m_bar;
    QLineEdit* m_addressField;
    QLabel* m_problem;
    QAction* m_back;
    QAction* m_forward;
    QAction* m_reload;
    QAction* m_openExternal;
    QAction* m_copy;
};

} // namespace lizard::ui::ports
