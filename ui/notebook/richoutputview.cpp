#include "ui/notebook/richoutputview.h"

#include "notebook/htmltables.h"
#include "ui/notebook/imagedialog.h"
#include "ui/notebook/imageoutputview.h"
#include "ui/notebook/interactiveoutputview.h"
#include "ui/notebook/richtextview.h"
#include "ui/theme/apptheme.h"
#include "ui/theme/themecolors.h"

#include <QHash>
#include <QPainter>
#include <QSvgRenderer>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using lizard::notebook::htmlTableStyleSheet;
using lizard::notebook::styleHtmlTables;

using lizard::notebook::Output;
using lizard::notebook::RichOutput;

namespace {

bool needsScripts(const QString& html)
{
    return html.contains(QLatin1String("<script"), Qt::CaseInsensitive);
}

QString prettyJson(const RichOutput& output, const QString& mime)
{
    const auto it = output.data.find(mime.toStdString());
    if (it == output.data.end())
        return {};
    if (it->is_string()) { // stored as text: parse it to pretty-print
        const auto parsed = nlohmann::json::parse(it->get<std::string>(), nullptr, false);
        if (!parsed.is_discarded())
            return QString::fromStdString(parsed.dump(2));
        return QString::fromStdString(it->get<std::string>());
    }
    return QString::fromStdString(
        it->dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
}

} // namespace

QString RichOutputView::preferredMime(const RichOutput& output)
{
    // An image that does not decode falls through to the next type, as does HTML that needs
    // scripts this view does not run, when there is text to show instead.
    return lizard::notebook::preferredMime(output, [&](const QString& mime) {
        if (mime.startsWith(QLatin1String("image/")))
            return !decodeImage(mime, output.text(mime)).isNull();
        if (mime == u"text/html")
            return !(needsScripts(output.text(mime)) && output.has(QStringLiteral("text/plain")));
        return true;
    });
}

QImage RichOutputView::decodeImage(const QString& mime, const QString& data)
{
    static const QHash<QString, const char*> formats{{QStringLiteral("image/png"), "PNG"},
                                                     {QStringLiteral("image/jpeg"), "JPEG"},
                                                     {QStringLiteral("image/gif"), "GIF"}};
    if (const char* format = formats.value(mime)) {
        const QByteArray bytes =
            QByteArray::fromBase64(data.toLatin1().trimmed().replace('\n', ""));
        return QImage::fromData(bytes, format);
    }
    if (mime == u"image/svg+xml") {
        QSvgRenderer renderer(data.toUtf8());
        if (!renderer.isValid())
            return {};
        QSize size = renderer.defaultSize();
        if (size.isEmpty())
            size = QSize(400, 300);
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        QPainter painter(&image);
        renderer.render(&painter);
        return image;
    }
    return {};
}

RichOutputView::RichOutputView(const RichOutput& output, QWidget* parent) : OutputView(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    show(output);
    // HTML's tables take the colours of the scheme in use (the rest follows the palette).
    connect(AppTheme::instance(), &AppTheme::changed, this, [this] {
        if (m_text && !m_html.isEmpty())
            showHtml();
    });
}

bool RichOutputView::setOutput(const Output& output)
{
    const auto* rich = std::get_if<RichOutput>(&output);
    if (!rich || InteractiveOutputView::wants(*rich)) // that one has a view of its own
        return false;
    clear();
    show(*rich);
    return true;
}

void RichOutputView::clear()
{
    delete m_image;
    delete m_text;
    m_image = nullptr;
    m_text = nullptr;
    m_html.clear();
}

void RichOutputView::show(const RichOutput& output)
{
    m_mime = preferredMime(output);
    m_plain = output.text(QStringLiteral("text/plain"));
    if (m_mime.startsWith(QLatin1String("image/"))) {
        m_image = new ImageOutputView(decodeImage(m_mime, output.text(m_mime)));
        connect(m_image, &ImageOutputView::clicked, this, &RichOutputView::openImage);
        layout()->addWidget(m_image);
        return;
    }
    m_text = new RichTextView;
    if (m_mime == u"text/html") {
        m_html = styleHtmlTables(output.text(m_mime));
        showHtml();
    } else if (m_mime == u"text/markdown") {
        m_text->document()->setMarkdown(output.text(m_mime));
    } else if (m_mime.isEmpty()) {
        m_text->setPlainText(
            QStringLiteral("[no displayable data: %1]").arg(output.mimeTypes().join(", ")));
    } else {
        m_text->setMonospace(true);
        const bool json = lizard::notebook::isJsonMime(m_mime);
        m_text->setPlainText(json ? prettyJson(output, m_mime) : output.text(m_mime));
    }
    layout()->addWidget(m_text);
}

void RichOutputView::showHtml()
{
    const ThemeColors& colours = ThemeColors::current();
    m_text->document()->setDefaultStyleSheet(
        htmlTableStyleSheet({colours.tableHeadRule.name(), colours.tableStripe.name()}));
    m_text->setHtml(m_html);
}

QString RichOutputView::plainText() const
{
    if (m_text)
        return m_text->toPlainText();
    return m_plain;
}

void RichOutputView::openImage()
{
    auto* dialog = new ImageDialog(m_image->image(), window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

} // namespace lizard::ui::notebook
