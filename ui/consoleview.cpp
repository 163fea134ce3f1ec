#include "ui/consoleview.h"

#include <QFontDatabase>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextCursor>

namespace lizard::ui {

namespace {
constexpr int kFlushIntervalMs = 16;
constexpr qsizetype kLinesPerFlush = 1000;
} // namespace

using client::OutputLine;
using client::OutputStream;

ConsoleView::ConsoleView(QWidget* parent) : QPlainTextEdit(parent)
{
    setReadOnly(true);
    setUndoRedoEnabled(false);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setMaximumBlockCount(m_maxLines);
    setPlaceholderText(QStringLiteral("Output of commands appears here."));
    m_stderrFormat.setForeground(QColor(0xb0, 0x20, 0x20));
    m_stderrFormat.setBackground(QColor(0xfd, 0xec, 0xec));
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(kFlushIntervalMs);
    connect(&m_flushTimer, &QTimer::timeout, this, &ConsoleView::flushSome);
}

void ConsoleView::setMaximumLines(int lines)
{
    m_maxLines = qMax(10, lines);
    setMaximumBlockCount(m_maxLines);
}

void ConsoleView::enqueue(const QList<OutputLine>& lines)
{
    m_pending.append(lines);
    // Lines beyond what the view can hold would be scrolled out at once: skip them here
    // (the OutputLog keeps everything), so a flush never does more than one screenful.
    if (m_pending.size() > m_maxLines) {
        const qsizetype excess = m_pending.size() - m_maxLines;
        m_pending.remove(0, excess);
        m_dropped += excess;
    }
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void ConsoleView::flushNow()
{
    while (!m_pending.isEmpty())
        flushSome();
    m_flushTimer.stop();
}

void ConsoleView::flushSome()
{
    m_flushTimer.stop();
    m_flushTimer.setInterval(kFlushIntervalMs);
    if (m_pending.isEmpty())
        return;
    // A screenful replaces everything shown: clearing is far cheaper than letting
    // maximumBlockCount trim thousands of old blocks one by one.
    if (m_pending.size() >= m_maxLines)
        clear();
    // Bounded work per event-loop turn; the rest follows right after other events ran.
    QList<OutputLine> lines;
    if (m_pending.size() <= kLinesPerFlush) {
        lines.swap(m_pending);
    } else {
        lines = m_pending.mid(0, kLinesPerFlush);
        m_pending.remove(0, kLinesPerFlush);
        m_flushTimer.start(0);
    }
    insertLines(lines);
    if (!m_pending.isEmpty() && !m_flushTimer.isActive())
        m_flushTimer.start(0);
}

void ConsoleView::insertLines(const QList<OutputLine>& lines)
{
    QScrollBar* bar = verticalScrollBar();
    const bool follow = bar->value() >= bar->maximum() - 2;
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    cursor.beginEditBlock();
    bool first = document()->isEmpty();
    // Consecutive lines of one stream go in with one insertText call.
    QString run;
    OutputStream runStream = OutputStream::Stdout;
    const auto formatOf = [this](OutputStream s) -> const QTextCharFormat& {
        return s == OutputStream::Stderr ? m_stderrFormat : m_stdoutFormat;
    };
    for (const OutputLine& line : lines) {
        if (line.stream != runStream && !run.isEmpty()) {
            cursor.insertText(run, formatOf(runStream));
            run.clear();
        }
        runStream = line.stream;
        if (!first) {
            // The separator carries the new line's format so a tinted line has no plain start.
            if (run.isEmpty())
                cursor.insertBlock(QTextBlockFormat(), formatOf(runStream));
            else
                run += QChar::ParagraphSeparator;
        }
        first = false;
        run += line.text;
    }
    if (!run.isEmpty())
        cursor.insertText(run, formatOf(runStream));
    cursor.endEditBlock();
    if (follow)
        bar->setValue(bar->maximum());
}

void ConsoleView::appendMarker(Marker marker, const QString& text)
{
    flushNow();
    QTextCharFormat format;
    switch (marker) {
    case Marker::Command:
        format.setFontWeight(QFont::Bold);
        format.setForeground(QColor(0x1f, 0x4e, 0x9a));
        break;
    case Marker::ExitOk:
        format.setForeground(QColor(0x2e, 0x7d, 0x32));
        break;
    case Marker::ExitFailed:
        format.setForeground(QColor(0xb0, 0x20, 0x20));
        format.setFontWeight(QFont::Bold);
        break;
    case Marker::Note:
        format.setForeground(QColor(0x70, 0x70, 0x70));
        format.setFontItalic(true);
        break;
    }
    QScrollBar* bar = verticalScrollBar();
    const bool follow = bar->value() >= bar->maximum() - 2;
    QTextCursor cursor(document());
    cursor.movePosition(QTextCursor::End);
    if (!document()->isEmpty())
        cursor.insertBlock(QTextBlockFormat(), format);
    cursor.insertText(text, format);
    if (follow)
        bar->setValue(bar->maximum());
}

} // namespace lizard::ui
