#include "ui/notebook/richtextview.h"

#include <QAbstractTextDocumentLayout>
#include <QFontDatabase>
#include <QScrollBar>

namespace lizard::ui::notebook {

RichTextView::RichTextView(QWidget* parent) : QTextBrowser(parent)
{
    setFrameShape(QFrame::NoFrame);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    setOpenExternalLinks(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setTextInteractionFlags(Qt::TextBrowserInteraction | Qt::TextSelectableByKeyboard);
    document()->setDocumentMargin(2);
    connect(document()->documentLayout(), &QAbstractTextDocumentLayout::documentSizeChanged, this,
            &RichTextView::fitHeight);
    setAutoFillBackground(false);
    viewport()->setAutoFillBackground(false);
}

void RichTextView::setMonospace(bool on)
{
    setFont(on ? QFontDatabase::systemFont(QFontDatabase::FixedFont) : QFont());
    setLineWrapMode(on ? QTextEdit::NoWrap : QTextEdit::WidgetWidth);
}

void RichTextView::setTint(const QColor& background)
{
    viewport()->setAutoFillBackground(background.isValid());
    if (background.isValid()) {
        QPalette p = viewport()->palette();
        p.setColor(QPalette::Base, background);
        viewport()->setPalette(p);
    }
}

void RichTextView::fitHeight()
{
    int h = int(std::ceil(document()->size().height())) + 2 * frameWidth();
    if (horizontalScrollBar()->maximum() > 0 || document()->size().width() > viewport()->width())
        h += horizontalScrollBar()->sizeHint().height();
    if (h != height())
        setFixedHeight(h);
}

void RichTextView::resizeEvent(QResizeEvent* event)
{
    QTextBrowser::resizeEvent(event);
    fitHeight();
}

} // namespace lizard::ui::notebook
