#include "ui/notebook/streamoutputview.h"

#include "ui/notebook/richtextview.h"

#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QMessageBox>
#include <QUrl>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using lizard::notebook::Output;
using lizard::notebook::StreamOutput;

StreamOutputView::StreamOutputView(const StreamOutput& output, QWidget* parent)
    : OutputView(parent), m_name(output.name), m_head(new RichTextView), m_bar(new QLabel),
      m_tail(new RichTextView)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    for (RichTextView* view : {m_head, m_tail}) {
        view->setMonospace(true);
        if (m_name == u"stderr")
            view->setTint(QColor(0xff, 0xdd, 0xdd));
    }
    m_bar->setTextFormat(Qt::RichText);
    m_bar->setContentsMargins(6, 3, 6, 3);
    m_bar->setStyleSheet(QStringLiteral("background:#eef2f7;color:#333;"));
    connect(m_bar, &QLabel::linkActivated, this, [this](const QString& link) {
        if (link == u"open")
            openFull();
        else
            saveAs();
    });
    layout->addWidget(m_head);
    layout->addWidget(m_bar);
    layout->addWidget(m_tail);
    m_bar->hide();
    m_tail->hide();
    m_render.setSingleShot(true);
    m_render.setInterval(renderDelayMs);
    connect(&m_render, &QTimer::timeout, this, &StreamOutputView::render);
    take(output.text);
    render();
}

StreamOutputView::~StreamOutputView() = default;

bool StreamOutputView::setOutput(const Output& output)
{
    const auto* stream = std::get_if<StreamOutput>(&output);
    if (!stream || stream->name != m_name)
        return false;
    if (stream->text.size() < m_consumed) { // replaced, not grown: start over
        m_buffer.clear();
        m_consumed = 0;
        m_file.reset();
    }
    take(stream->text);
    if (!m_render.isActive())
        m_render.start();
    return true;
}

void StreamOutputView::take(const QString& text)
{
    const QStringView chunk = QStringView(text).mid(m_consumed);
    if (chunk.isEmpty())
        return;
    m_buffer.append(chunk);
    if (m_file) {
        m_file->write(chunk.toUtf8());
    } else if (m_buffer.truncated() && m_fileError.isEmpty()) {
        // From now on the view cannot show everything: keep the whole text on disk.
        auto file = std::make_unique<QTemporaryFile>(QDir::tempPath() + "/lizard-output-XXXXXX.txt");
        if (file->open() && file->write(text.toUtf8()) >= 0)
            m_file = std::move(file);
        else
            m_fileError = file->errorString();
    }
    m_consumed = text.size();
}

void StreamOutputView::flushRender()
{
    m_render.stop();
    render();
}

void StreamOutputView::render()
{
    const QString head = m_buffer.headText();
    if (head != m_shownHead) { // fixed once the head is full
        m_head->setPlainText(head);
        m_shownHead = head;
    }
    const QString tail = m_buffer.tailText();
    m_tail->setVisible(!tail.isEmpty());
    m_tail->setPlainText(tail);
    m_bar->setVisible(m_buffer.truncated());
    if (m_buffer.truncated()) {
        const QString actions = m_file ? QStringLiteral(" — <a href=\"open\">Open full output</a> · "
                                                        "<a href=\"save\">Save…</a>")
                                       : " — full output not kept: " + m_fileError.toHtmlEscaped();
        m_bar->setText(hiddenText().toHtmlEscaped() + actions);
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
    return m_file ? m_file->fileName() : QString();
}

QString StreamOutputView::saveTo(const QString& path)
{
    if (!m_file)
        return QStringLiteral("the full output was not kept");
    m_file->flush();
    QFile::remove(path);
    if (!QFile::copy(m_file->fileName(), path))
        return QStringLiteral("cannot write %1").arg(path);
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    return {};
}

void StreamOutputView::openFull()
{
    if (!m_file)
        return;
    m_file->flush();
    QDesktopServices::openUrl(QUrl::fromLocalFile(m_file->fileName()));
}

void StreamOutputView::saveAs()
{
    const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save output"),
                                                      QDir::homePath() + "/output.txt");
    if (path.isEmpty())
        return;
    const QString error = saveTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, QStringLiteral("Save output"), error);
}

} // namespace lizard::ui::notebook
