#include "ui/notebook/interactiveoutputview.h"

#include "ui/notebook/interactiveviewpool.h"
#include "ui/notebook/richoutputview.h"
#include "ui/ports/previewengine.h"

#include <QLabel>
#include <QRegularExpression>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using lizard::notebook::Output;
using lizard::notebook::RichOutput;

namespace {

// Height before the page is measured: that of a chart at Plotly's default size, so the
// notebook does not jump when the first one loads.
constexpr int kUnmeasuredHeight = 460;
constexpr int kMinHeight = 24;

} // namespace

bool InteractiveOutputView::wants(const RichOutput& output)
{
    static const QString html = QStringLiteral("text/html");
    if (!output.has(html))
        return false;
    const QString text = output.text(html);
    static const QRegularExpression script(QStringLiteral("<script\\b"),
                                           QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression remote(
        QStringLiteral("<script\\b[^>]*\\bsrc\\s*=\\s*[\"']?\\s*(https?:)?//"),
        QRegularExpression::CaseInsensitiveOption);
    return text.contains(script) && !text.contains(remote);
}

InteractiveOutputView::InteractiveOutputView(const RichOutput& output, QWidget* parent)
    : OutputView(parent), m_output(output),
      m_html(output.text(QStringLiteral("text/html")).toUtf8()), m_layout(new QVBoxLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_placeholder = new QLabel(tr("Interactive output: shown when scrolled into view"), this);
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false); // the greyed text of something not there yet
    m_layout->addWidget(m_placeholder);
    applyHeight();
    InteractiveViewPool::instance()->add(this);
}

InteractiveOutputView::~InteractiveOutputView()
{
    InteractiveViewPool::instance()->remove(this);
    detach();
}

bool InteractiveOutputView::setOutput(const Output& output)
{
    const auto* rich = std::get_if<RichOutput>(&output);
    if (!rich || !wants(*rich))
        return false;
    m_output = *rich;
    m_html = rich->text(QStringLiteral("text/html")).toUtf8();
    m_loaded = false;
    if (m_web)
        m_web->setHtml(m_html);
    return true;
}

QString InteractiveOutputView::plainText() const
{
    return m_output.text(QStringLiteral("text/plain"));
}

bool InteractiveOutputView::runJavaScript(const QString& script,
                                          std::function<void(const QString&)> done)
{
    if (!m_web)
        return false;
    m_web->runJavaScript(script, std::move(done));
    return true;
}

bool InteractiveOutputView::attach()
{
    if (m_web)
        return true;
    if (m_fallback)
        return false;
    lizard::ui::ports::PreviewEngine* engine = lizard::ui::ports::PreviewLoader::engine();
    if (!engine) {
        showFallback(lizard::ui::ports::PreviewLoader::errorString());
        return false;
    }
    m_web = engine->createHtmlView(this, this);
    m_placeholder->hide();
    m_layout->addWidget(m_web->widget());
    m_loaded = false;
    m_web->setHtml(m_html);
    return true;
}

void InteractiveOutputView::detach()
{
    if (!m_web)
        return;
    QWidget* widget = m_web->widget();
    m_web = nullptr; // the view reports nothing once its widget is going
    delete widget;
    m_loaded = false;
    if (m_placeholder)
        m_placeholder->show();
}

void InteractiveOutputView::showFallback(const QString& why)
{
    delete m_placeholder;
    m_placeholder = nullptr;
    auto* note = new QLabel(
        tr("This output needs its scripts, which this app cannot run: %1").arg(why), this);
    note->setWordWrap(true);
    note->setEnabled(false);
    m_layout->addWidget(note);
    m_fallback = new RichOutputView(m_output, this);
    m_layout->addWidget(m_fallback);
    setMinimumHeight(0);
    setMaximumHeight(QWIDGETSIZE_MAX);
}

void InteractiveOutputView::applyHeight()
{
    if (m_fallback)
        return;
    const int height = m_contentHeight > 0 ? std::clamp(m_contentHeight, kMinHeight, kMaxHeight)
                                           : kUnmeasuredHeight;
    setFixedHeight(height);
}

void InteractiveOutputView::htmlLoadFinished(bool ok)
{
    m_loaded = ok;
    if (ok)
        emit loaded();
}

void InteractiveOutputView::htmlContentHeight(int height)
{
    if (height == m_contentHeight)
        return;
    m_contentHeight = height;
    applyHeight();
}

void InteractiveOutputView::showEvent(QShowEvent* event)
{
    OutputView::showEvent(event);
    InteractiveViewPool::instance()->scheduleCheck();
}

void InteractiveOutputView::hideEvent(QHideEvent* event)
{
    OutputView::hideEvent(event);
    InteractiveViewPool::instance()->scheduleCheck();
}

void InteractiveOutputView::resizeEvent(QResizeEvent* event)
{
    OutputView::resizeEvent(event);
    InteractiveViewPool::instance()->scheduleCheck();
}

} // namespace lizard::ui::notebook
