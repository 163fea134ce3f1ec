#pragma once
// stdout/stderr of a cell (stderr tinted), growing as it streams. A huge stream shows its first
// and last lines with "N lines hidden — Show full output · Save…" between them; the whole text
// comes from the model (in memory, or its spill file once it is large), paged in a
// FullOutputDialog. Repaints are coalesced, so a fast stream costs the event loop a few
// milliseconds per frame, not per line.

#include "notebook/headtailbuffer.h"
#include "ui/notebook/outputview.h"

#include <QPointer>
#include <QTimer>
#include <functional>

class QLabel;
class QVBoxLayout;

namespace lizard::ui::notebook {

class FullOutputDialog;
class RichTextView;

class StreamOutputView : public OutputView
{
    Q_OBJECT
public:
    explicit StreamOutputView(const lizard::notebook::StreamOutput& output,
                              QWidget* parent = nullptr);
    ~StreamOutputView() override;

    bool setOutput(const lizard::notebook::Output& output) override;
    QString plainText() const override;
    void flush() override;

    QString name() const { return m_name; }
    qint64 hiddenLines() const { return m_buffer.hiddenLines(); }
    qint64 lineCount() const { return m_buffer.lineCount(); }
    QString hiddenText() const; // the bar's text, empty when nothing is hidden
    // Where the whole output is read from: the model's current value of this output (the view
    // keeps no copy, which would make every append copy the text). Set by OutputArea.
    using Source = std::function<const lizard::notebook::StreamOutput*()>;
    void setSource(Source source) { m_source = std::move(source); }
    // The model's spill file of this output; empty while it is in memory.
    QString fullOutputFile() const;
    // Copies the whole output to path. Empty on success, else the reason.
    QString saveTo(const QString& path);
    // Opens the whole output in a FullOutputDialog (null when there is no source).
    FullOutputDialog* showFullOutput();
    void flushRender(); // repaint now (tests; normally a timer does it)

    static constexpr int headLines = 200;
    static constexpr int tailLines = 200;
    static constexpr int renderDelayMs = 40;

private:
    void take(const lizard::notebook::StreamOutput& stream);
    void rebuild(const lizard::notebook::StreamOutput& stream);
    void render();
    void saveAs();
    void styleView(RichTextView* view) const;
    void makeTruncationParts(); // m_bar and m_tail, when the stream first passes its head

    QString m_name;
    lizard::notebook::HeadTailBuffer m_buffer{headLines, tailLines};
    qint64 m_consumed = 0; // UTF-16 units of the whole text taken so far
    Source m_source;
    QPointer<FullOutputDialog> m_dialog;
    QVBoxLayout* m_layout;
    RichTextView* m_head;
    QString m_shownHead;
    QLabel* m_bar = nullptr;
    RichTextView* m_tail = nullptr;
    QTimer m_render;
};

} // namespace lizard::ui::notebook
