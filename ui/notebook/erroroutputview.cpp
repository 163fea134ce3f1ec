#include "ui/notebook/erroroutputview.h"

#include "notebook/ansihtml.h"
#include "ui/notebook/richtextview.h"

#include <QVBoxLayout>

namespace lizard::ui::notebook {

using lizard::notebook::ansiToHtmlDocument;
using lizard::notebook::ErrorOutput;
using lizard::notebook::stripAnsi;

ErrorOutputView::ErrorOutputView(const ErrorOutput& output, QWidget* parent)
    : OutputView(parent), m_text(new RichTextView)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text);
    m_text->setMonospace(true);
    m_text->setTint(QColor(0xff, 0xf0, 0xf0));
    show(output);
}

bool ErrorOutputView::setOutput(const lizard::notebook::Output& output)
{
    const auto* error = std::get_if<ErrorOutput>(&output);
    if (!error)
        return false;
    show(*error);
    return true;
}

void ErrorOutputView::show(const ErrorOutput& output)
{
    QString text = output.traceback.join(u'\n');
    if (stripAnsi(text).trimmed().isEmpty())
        text = output.evalue.isEmpty() ? output.ename : output.ename + ": " + output.evalue;
    m_text->setHtml(ansiToHtmlDocument(text));
}

QString ErrorOutputView::plainText() const
{
    return m_text->toPlainText();
}

} // namespace lizard::ui::notebook
