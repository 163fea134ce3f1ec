#pragma once
// An output whose HTML needs its scripts (a Plotly chart with plotly.js inline, Bokeh, a
// widget's own inline library), shown in an isolated QtWebEngine view from the preview plugin.
// The web view exists only while the output is on screen or near it (InteractiveViewPool
// decides, and caps how many exist); otherwise a placeholder of the same height stands in, so
// a notebook with fifty charts does not hold fifty renderers. Without QtWebEngine it shows
// what RichOutputView shows for the bundle (its PNG or text), with a line that says why.

#include "ui/notebook/outputview.h"
#include "ui/ports/previewengine.h"

#include <functional>

class QLabel;
class QVBoxLayout;

namespace lizard::ui::notebook {

class InteractiveOutputView : public OutputView, private lizard::ui::ports::HtmlObserver
{
    Q_OBJECT
public:
    // Tallest the view grows to follow its content; a taller page scrolls inside.
    static constexpr int kMaxHeight = 800;

    // Whether `output` is shown here: its text/html has a <script> and loads no script from a
    // remote address (that would not load: the view has no network, so the bundle's other
    // types, shown by RichOutputView, say more). JSON types (Plotly, Vega-Lite) and
    // application/javascript alone are not run: no library for them is bundled.
    static bool wants(const lizard::notebook::RichOutput& output);

    explicit InteractiveOutputView(const lizard::notebook::RichOutput& output,
                                   QWidget* parent = nullptr);
    ~InteractiveOutputView() override;

    bool setOutput(const lizard::notebook::Output& output) override;
    QString plainText() const override;

    // The web view while it exists (the pool makes and drops it), null otherwise.
    QWidget* webView() const { return m_web ? m_web->widget() : nullptr; }
    bool isLoaded() const { return m_loaded; }
    int contentHeight() const { return m_contentHeight; }
    // Runs `script` in the page (for tests and diagnostics); false without a web view.
    bool runJavaScript(const QString& script, std::function<void(const QString&)> done);

signals:
    void loaded(); // the page finished loading in a new web view

private:
    friend class InteractiveViewPool;
    bool attach(); // makes the web view; false when QtWebEngine is not available
    void detach();
    void showFallback(const QString& why);
    void applyHeight();

    void htmlLoadFinished(bool ok) override;
    void htmlContentHeight(int height) override;
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

    lizard::notebook::RichOutput m_output;
    QByteArray m_html;
    QVBoxLayout* m_layout;
    QLabel* m_placeholder = nullptr;
    QWidget* m_fallback = nullptr;
    lizard::ui::ports::HtmlView* m_web = nullptr;
    bool m_loaded = false;
    int m_contentHeight = 0; // 0 until measured
};

} // namespace lizard::ui::notebook
