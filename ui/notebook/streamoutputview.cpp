#include "ui/notebook/streamoutputview.h"

#include "notebook/spillfile.h"
#include "notebook/streamtext.h"
#include "ui/notebook/fulloutputdialog.h"
#include "ui/notebook/richtextview.h"

#include <QLabel>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using lizard::notebook::Output;
using lizard::notebook::StreamOutput;
using lizard::notebook::StreamText;

StreamOutputView::StreamOutputView(const StreamOutput& output, QWidget* parent)
    : OutputView(parent), m_name(output.name), m_head(new RichTextView)
{
    m_layout = new QVBoxLayout(this);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(0);
    styleView(m_head);
    m_layout->addWidget(m_head);
    m_render.setSingleShot(true);
    m_render.setInterval(renderDelayMs);
    connect(&m_render, &QTimer::timeout, this, &StreamOutputView::render);
    take(output);
    render();
}

void StreamOutputView::styleView(RichTextView* view) const
{
    view->setMonospace(true);
    if (m_name == u"stderr")
        view->setTint(QColor(0xff, 0xdd, 0xdd));
}

void StreamOutputView::makeTruncationParts()
{
    // Only a stream past its head needs the bar and the tail: most outputs are short, and a
    // notebook of hundreds of cells made two more views per output for nothing.
    if (m_tail != nullptr)
        return;
    m_bar = new QLabel;
    m_bar->setTextFormat(Qt::RichText);
    m_bar->setContentsMargins(6, 3, 6, 3);
    m_bar->setStyleSheet(QStringLiteral("background:#eef2f7;color:#333;"));
    connect(m_bar, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link == u"open")
            showFullOutput();
        else
            saveAs();
    });
    m_tail = new RichTextView;
    styleView(m_tail);
    m_layout->addWidget(m_bar);
    m_layout->addWidget(m_tail);
}

StreamOutputView::~StreamOutputView() = default;

bool StreamOutputView::setOutput(const Output& output)
{
    const auto* stream = std::get_if<StreamOutput>(&output);
    if (!stream || stream->name != m_name)
        return false;
    if (lizard::notebook::streamLength(*stream) < m_consumed) { // replaced, not grown: start over
        m_buffer.clear();
        m_consumed = 0;
    }
    take(*stream);
    if (!m_render.isActive())
        m_render.start();
    return true;
}

void StreamOutputView::take(const StreamOutput& stream)
{
    const qint64 total = lizard::notebook::streamLength(stream);
    const qint64 fresh = total - m_consumed;
    if (fresh <= 0)
        return;
    if (!stream.spilled)
        m_buffer.append(QStringView(stream.text).mid(m_consumed));
    else if (fresh <= stream.text.size()) // the new part is at the end of what memory keeps
        m_buffer.append(QStringView(stream.text).right(fresh));
    else
        rebuild(stream);
    m_consumed = total;
}

void StreamOutputView::rebuild(const StreamOutput& stream)
{
    // The text between the model's head and tail is only on disk: show the whole lines of the
    // head, the count of the lines between, and the whole lines of the tail.
    const QStringView head =
        QStringView(stream.spilled->head).left(stream.spilled->head.lastIndexOf(u'\n') + 1);
    const QStringView tail = QStringView(stream.text).mid(stream.text.indexOf(u'\n') + 1);
    const qint64 middle = stream.spilled->newlines - head.count(u'\n') - tail.count(u'\n');
    m_buffer.clear();
    m_buffer.append(head);
    m_buffer.skipLines(qMax<qint64>(0, middle));
    m_buffer.append(tail);
}

void StreamOutputView::flushRender()
{
    m_render.stop();
    render();
}

void StreamOutputView::flush()
{
    if (m_render.isActive())
        flushRender();
}

void StreamOutputView::render()
{
    const QString head = m_buffer.headText();
    if (head != m_shownHead) { // fixed once the head is full
        m_head->setPlainText(head);
        m_shownHead = head;
    }
    const QString tail = m_buffer.tailText();
    if (tail.isEmpty() && !m_buffer.truncated()) {
        if (m_tail != nullptr) { // replaced by a shorter stream
            m_tail->hide();
            m_bar->hide();
        }
        return;
    }
    makeTruncationParts();
    m_tail->setVisible(!tail.isEmpty());
    m_tail->setPlainText(tail);
    m_bar->setVisible(m_buffer.truncated());
    if (m_buffer.truncated()) {
        m_bar->setText(
            hiddenText().toHtmlEscaped() +
            QStringLiteral(
                " — <a href=\"open\">Show full output</a> · <a href=\"save\">Save…</a>"));
    }
}

QString StreamOutputView::hiddenText() const
{
    if (!m_buffer.truncated())
        return {};
    // Thousands separated by a thin space: "99 600 lines hidden".
    QString n = QString::number(m_buffer.hiddenLines());
    for (qsizetype i = n.size() - 3; i > 0; i -= 3)
        n.insert(i, QChar(0x2009));
    return QStringLiteral("%1 lines hidden").arg(n);
}

QString StreamOutputView::plainText() const
{
    const QString head = m_buffer.headText();
    const QString tail = m_buffer.tailText();
    if (tail.isEmpty())
        return head;
    return head.isEmpty() ? tail : head + u'\n' + tail;
}

QString StreamOutputView::fullOutputFile() const
{
    const StreamOutput* stream = m_source ? m_source() : nullptr;
    return stream && stream->spilled ? stream->spilled->file->path() : QString();
}

QString StreamOutputView::saveTo(const QString& path)
{
    const StreamOutput* stream = m_source ? m_source() : nullptr;
    if (!stream)
        return QStringLiteral("the output is no longer in the notebook");
    return StreamText(*stream).copyTo(path);
}

FullOutputDialog* StreamOutputView::showFullOutput()
{
    const StreamOutput* stream = m_source ? m_source() : nullptr;
    if (!stream)
        return nullptr;
    delete m_dialog; // shows the text of now, not of when it was first opened
    // A child of the window, not of this view: it stays open (with its copy of the text) when
    // the cell runs again and its outputs are cleared.
    m_dialog = new FullOutputDialog(StreamText(*stream),
                                    QStringLiteral("Full output (%1)").arg(m_name), window());
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_dialog->show();
    return m_dialog;
}

void StreamOutputView::saveAs()
{
    saveOutputInteractive(this, [this](const QString& path) { return saveTo(path); });
}

} // namespace lizard::ui::notebook
