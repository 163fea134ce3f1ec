#include "ui/notebook/fulloutputdialog.h"

#include <QDir>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

namespace {

// A cut that does not split a UTF-8 character: back to the start of the character at `at`.
qint64 characterStart(const QByteArray& bytes, qint64 at)
{
    while (at > 0 && at < bytes.size() && (static_cast<unsigned char>(bytes[at]) & 0xC0) == 0x80)
        --at;
    return at;
}

} // namespace

FullOutputDialog::FullOutputDialog(lizard::notebook::StreamText text, const QString& title,
                                   QWidget* parent, qint64 pageBytes)
    : QDialog(parent), m_text(std::move(text)), m_pageBytes(qMax<qint64>(4096, pageBytes)),
      m_view(new QPlainTextEdit(this)), m_position(new QLabel(this)),
      m_first(new QPushButton(QStringLiteral("« First"))),
      m_previous(new QPushButton(QStringLiteral("◀ Previous"))),
      m_next(new QPushButton(QStringLiteral("Next ▶"))),
      m_last(new QPushButton(QStringLiteral("Last »")))
{
    setWindowTitle(title);
    setObjectName(QStringLiteral("fullOutputDialog"));
    m_view->setReadOnly(true);
    m_view->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* save = new QPushButton(QStringLiteral("Save…"));
    auto* close = new QPushButton(QStringLiteral("Close"));
    auto* bar = new QHBoxLayout;
    for (QPushButton* b : {m_first, m_previous, m_next, m_last})
        bar->addWidget(b);
    bar->addWidget(m_position, 1);
    bar->addWidget(save);
    bar->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_view, 1);
    layout->addLayout(bar);
    connect(m_first, &QPushButton::clicked, this, &FullOutputDialog::firstPage);
    connect(m_previous, &QPushButton::clicked, this, &FullOutputDialog::previousPage);
    connect(m_next, &QPushButton::clicked, this, &FullOutputDialog::nextPage);
    connect(m_last, &QPushButton::clicked, this, &FullOutputDialog::lastPage);
    connect(save, &QPushButton::clicked, this, &FullOutputDialog::saveInteractive);
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
    resize(900, 650);
    firstPage();
}

QString FullOutputDialog::pageText() const
{
    return m_view->toPlainText();
}

QString FullOutputDialog::positionText() const
{
    return m_position->text();
}

void FullOutputDialog::firstPage()
{
    showRange(0, endFrom(0));
}

void FullOutputDialog::previousPage()
{
    if (m_start > 0)
        showRange(startBefore(m_start), m_start);
}

void FullOutputDialog::nextPage()
{
    if (m_end < m_text.size())
        showRange(m_end, endFrom(m_end));
}

void FullOutputDialog::lastPage()
{
    showRange(startBefore(m_text.size()), m_text.size());
}

qint64 FullOutputDialog::endFrom(qint64 start)
{
    const qint64 size = m_text.size();
    if (start + m_pageBytes >= size)
        return size;
    // End after the last line break of the page; a page without one ends between characters.
    const QByteArray page = m_text.read(start, m_pageBytes, &m_error);
    const qsizetype nl = page.lastIndexOf('\n');
    if (nl >= 0)
        return start + nl + 1;
    const qint64 cut = characterStart(page, page.size());
    return start + (cut > 0 ? cut : page.size());
}

qint64 FullOutputDialog::startBefore(qint64 end)
{
    const qint64 from = qMax<qint64>(0, end - m_pageBytes);
    if (from == 0)
        return 0;
    // Start after the first line break of the window, so the page begins with a whole line.
    const QByteArray window = m_text.read(from, end - from, &m_error);
    const qsizetype nl = window.indexOf('\n');
    if (nl >= 0 && from + nl + 1 < end)
        return from + nl + 1;
    qsizetype skip = 0; // a window that begins inside a character starts at the next one
    while (skip < window.size() && (static_cast<unsigned char>(window[skip]) & 0xC0) == 0x80)
        ++skip;
    return from + skip;
}

void FullOutputDialog::showRange(qint64 start, qint64 end)
{
    m_start = start;
    m_end = end;
    const QByteArray bytes = m_text.read(start, end - start, &m_error);
    m_view->setPlainText(m_error.isEmpty() ? QString::fromUtf8(bytes) : m_error);
    const QLocale locale;
    m_position->setText(
        QStringLiteral("bytes %1–%2 of %3")
            .arg(locale.toString(start), locale.toString(end), locale.toString(m_text.size())));
    m_first->setEnabled(start > 0);
    m_previous->setEnabled(start > 0);
    m_next->setEnabled(end < m_text.size());
    m_last->setEnabled(end < m_text.size());
}

void saveOutputInteractive(QWidget* parent, const std::function<QString(const QString&)>& saveTo)
{
    const QString path = QFileDialog::getSaveFileName(parent, QStringLiteral("Save output"),
                                                      QDir::homePath() + "/output.txt");
    if (path.isEmpty())
        return;
    const QString error = saveTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(parent, QStringLiteral("Save output"), error);
}

void FullOutputDialog::saveInteractive()
{
    saveOutputInteractive(this, [this](const QString& path) { return saveTo(path); });
}

} // namespace lizard::ui::notebook
