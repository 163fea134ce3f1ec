#pragma once
// A result or display (a MIME bundle), shown by its richest type this view can render:
// image/png, image/svg+xml, text/html (tables as JupyterLab draws them, in the colour scheme's
// colours; HTML that needs scripts falls back to the next type), text/markdown, application/json
// (pretty), text/latex as text, text/plain.

#include "ui/notebook/outputview.h"

#include <QImage>

namespace lizard::ui::notebook {

class ImageOutputView;
class RichTextView;

class RichOutputView : public OutputView
{
    Q_OBJECT
public:
    explicit RichOutputView(const lizard::notebook::RichOutput& output, QWidget* parent = nullptr);

    bool setOutput(const lizard::notebook::Output& output) override;
    QString plainText() const override;

    QString shownMime() const { return m_mime; }
    ImageOutputView* imageView() const { return m_image; } // null unless an image is shown
    RichTextView* textView() const { return m_text; }      // null when an image is shown

    // The type that will be shown, empty when nothing in the bundle can be.
    static QString preferredMime(const lizard::notebook::RichOutput& output);
    // PNG (base64) or SVG (text) to an image; a null image when it cannot be decoded.
    static QImage decodeImage(const QString& mime, const QString& data);

private:
    void show(const lizard::notebook::RichOutput& output);
    void clear();
    void openImage();
    void showHtml(); // m_html with the table style of the colour scheme in use

    QString m_html; // text/html as marked for the table style (empty for other types)
    QString m_mime;
    ImageOutputView* m_image = nullptr;
    RichTextView* m_text = nullptr;
    QString m_plain;
};

} // namespace lizard::ui::notebook
