#pragma once
// The interface between the app and the web preview plugin (lizard_preview: port previews and
// interactive notebook outputs), loaded on first use by PreviewLoader (below) so that QtWebEngine
// is not loaded at startup. The interfaces are pure: the plugin links Qt only, never the app's
// libraries, and implements them; PreviewLoader is the app's (previewengine.cpp).

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QUrl>
#include <QtPlugin>
#include <functional>

class QWidget;

namespace lizard::ui::ports {

// What a browser view reports. Called on the GUI thread.
class PreviewObserver
{
public:
    virtual ~PreviewObserver() = default;
    virtual void previewUrlChanged(const QUrl& url) = 0;
    virtual void previewTitleChanged(const QString& title) = 0;
    virtual void previewLoadFinished(bool ok) = 0;
    virtual void previewHistoryChanged() = 0; // canGoBack/canGoForward may have changed
};

// A browser view: a widget (owned by its Qt parent) whose requests to `origin`, and only
// those, carry `X-Lizard-Access-Token: token`. Its storage is its own and kept in memory only.
class PreviewView
{
public:
    virtual ~PreviewView() = default;
    virtual QWidget* widget() = 0;
    virtual void load(const QUrl& url) = 0;
    virtual void back() = 0;
    virtual void forward() = 0;
    virtual void reload() = 0;
    virtual bool canGoBack() const = 0;
    virtual bool canGoForward() const = 0;
    virtual QUrl url() const = 0;
    virtual QString title() const = 0;
    // Runs `script` in the page; `done` gets its result as text (for tests and diagnostics).
    virtual void runJavaScript(const QString& script, std::function<void(const QString&)> done) = 0;
};

// What an HTML output view reports. Called on the GUI thread.
class HtmlObserver
{
public:
    virtual ~HtmlObserver() = default;
    virtual void htmlLoadFinished(bool ok) = 0;
    // The document's height in CSS pixels, measured after load and again while scripts draw.
    virtual void htmlContentHeight(int height) = 0;
};

// A view of one untrusted HTML document (a notebook output whose scripts must run): its own
// off-the-record profile, no network, no file access, no channel to the app; links the user
// clicks open in the system browser. A widget owned by its Qt parent.
class HtmlView
{
public:
    virtual ~HtmlView() = default;
    virtual QWidget* widget() = 0;
    // Shows `html` (UTF-8, any size, a fragment or a whole document) in place of what was shown.
    virtual void setHtml(const QByteArray& html) = 0;
    virtual void runJavaScript(const QString& script, std::function<void(const QString&)> done) = 0;
};

// The plugin's root object.
class PreviewEngine
{
public:
    virtual ~PreviewEngine() = default;
    // The observer must outlive the view (delete the view's widget first).
    virtual PreviewView* createView(const QUrl& origin, const QByteArray& token,
                                    PreviewObserver* observer, QWidget* parent) = 0;
    // The observer must outlive the view (delete the view's widget first).
    virtual HtmlView* createHtmlView(HtmlObserver* observer, QWidget* parent) = 0;
    virtual QString engineVersion() const = 0; // e.g. "QtWebEngine 6.4.2 (Chromium 102)"
};

// Loads the plugin the first time a preview opens. It is searched in $LIZARD_PREVIEW_PLUGIN (a
// file), then next to the app in ../lib/lizard-desktop/ (the build tree and installed packages
// use that layout).
class PreviewLoader
{
public:
    // The engine, loading it on the first call; nullptr with errorString() when it cannot load.
    static PreviewEngine* engine();
    static QString errorString();
    static bool isLoaded();
    static QStringList candidates(); // where it is looked for, in order
};

} // namespace lizard::ui::ports

#define LizardPreviewEngine_iid "build.lizard.desktop.PreviewEngine/2"
Q_DECLARE_INTERFACE(lizard::ui::ports::PreviewEngine, LizardPreviewEngine_iid)
