#pragma once
// stdout/stderr of a cell (stderr tinted), growing as it streams. A huge stream shows its first
// and last lines with "N lines hidden — Open full output · Save…" between them; the whole text
// goes to a temporary file from the moment it is cut. Repaints are coalesced, so a fast stream
// costs the event loop a few milliseconds per frame, not per line.

#include "ui/notebook/headtailbuffer.h"
#include "ui/notebook/outputview.h"

#include <QTemporaryFile>
#include <QTimer>
#include <memory>

class QLabel;

namespace lizard::ui::notebook {

class RichTextView;

class StreamOutputView : public OutputView
{
    Q_OBJECT
public:
    explicit StreamOutputView(const lizard::notebook::StreamOutput& output, QWidget* parent = nullptr);
    ~StreamOutputView() override;

    bool setOutput(const lizard::notebook::Output& output) override;
    QString plainText() const override;

    QString name() const { return m_name; }
    qint64 hiddenLines() const { return m_buffer.hiddenLines(); }
    qint64 lineCount() const { return m_buffer.lineCount(); }
    QString hiddenText() const; // the bar's text, empty when nothing is hidden
    QString fullOutputFile() const; // the temporary file, empty until the output is cut
    // Copies the whole output to path. Empty on success, else the reason.
    QString saveTo(const QString& path);
    void flushRender(); // repaint now (tests; normally a timer does it)

    static constexpr int headLines = 200;
    static constexpr int tailLines = 200;
    static constexpr int renderDelayMs = 40;

private:
    void take(const QString& text);
    void render();
    void openFull();
    void saveAs();

    QString m_name;
    HeadTailBuffer m_buffer{headLines, tailLines};
    qsizetype m_consumed = 0;
    std::unique_ptr<QTemporaryFile> m_file;
    QString m_fileError;
    RichTextView* m_head;
    QString m_shownHead;
    QLabel* m_bar;
    RichTextView* m_tail;
    QTimer m_render;
};

} // namespace lizard::ui::notebook
