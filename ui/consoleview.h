#pragma once
// The output pane of the console: a read-only text view holding a bounded number of lines.
// Lines are queued and appended in coalesced batches (one per ~16 ms, at most 1000 lines per
// event-loop turn) so a flood of output never stalls the event loop; stderr lines are tinted.

#include "client/outcome.h"

#include <QElapsedTimer>
#include <QPlainTextEdit>
#include <QTextCharFormat>
#include <QTimer>

namespace lizard::ui {

class ConsoleView : public QPlainTextEdit
{
    Q_OBJECT
public:
    enum class Marker { Command, ExitOk, ExitFailed, Note };

    explicit ConsoleView(QWidget* parent = nullptr);

    void setMaximumLines(int lines);
    int maximumLines() const { return m_maxLines; }

    void enqueue(const QList<client::OutputLine>& lines);
    void appendMarker(Marker marker, const QString& text); // flushes queued output first
    void flushNow();                                       // everything queued, now
    int pendingLines() const { return int(m_pending.size()); }
    qint64 linesDropped() const { return m_dropped; } // skipped because they would scroll out

private:
    void flushSome(); // at most a bounded number of lines per event-loop turn
    void insertLines(const QList<client::OutputLine>& lines);

    QList<client::OutputLine> m_pending;
    QTimer m_flushTimer;
    int m_maxLines = 5000;
    qint64 m_dropped = 0;
    QTextCharFormat m_stdoutFormat;
    QTextCharFormat m_stderrFormat;
};

} // namespace lizard::ui
