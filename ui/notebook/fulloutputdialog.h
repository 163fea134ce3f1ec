#pragma once
// "Show full output" of a stream: the whole text, read from the model (memory or its spill file)
// one page at a time, so a gigabyte of output never sits in a text widget. Pages end at line
// breaks where there are any; First, Previous, Next and Last move through them; Save… copies
// every byte to a file. Read-only; the output may go on growing meanwhile (the dialog shows the
// text as it was when it opened).

#include "notebook/streamtext.h"

#include <QDialog>
#include <functional>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace lizard::ui::notebook {

// Asks where to save a stream's text and saves it with `saveTo` (empty on success, else the
// reason, shown in a message box). Shared by the dialog and the output view's Save….
void saveOutputInteractive(QWidget* parent, const std::function<QString(const QString&)>& saveTo);

class FullOutputDialog : public QDialog
{
    Q_OBJECT
public:
    FullOutputDialog(lizard::notebook::StreamText text, const QString& title,
                     QWidget* parent = nullptr, qint64 pageBytes = defaultPageBytes);

    QString pageText() const;
    qint64 pageStart() const { return m_start; }
    qint64 pageEnd() const { return m_end; }
    qint64 totalBytes() const { return m_text.size(); }
    QString positionText() const;
    QString errorText() const { return m_error; }

    void firstPage();
    void previousPage();
    void nextPage();
    void lastPage();
    // Copies the whole text to path. Empty on success, else the reason.
    QString saveTo(const QString& path) const { return m_text.copyTo(path); }

    static constexpr qint64 defaultPageBytes = 256 * 1024;

private:
    void showRange(qint64 start, qint64 end);
    qint64 endFrom(qint64 start);
    qint64 startBefore(qint64 end);
    void saveInteractive();

    lizard::notebook::StreamText m_text;
    qint64 m_pageBytes;
    qint64 m_start = 0;
    qint64 m_end = 0;
    QString m_error;
    QPlainTextEdit* m_view;
    QLabel* m_position;
    QPushButton* m_first;
    QPushButton* m_previous;
    QPushButton* m_next;
    QPushButton* m_last;
};

} // namespace lizard::ui::notebook
