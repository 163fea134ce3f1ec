#pragma once
// A non-modal strip above the content for a task that takes a while (e.g. "New notebook"):
// what is happening now, a busy bar and Cancel. The window stays usable meanwhile.

#include <QFrame>

class QLabel;
class QProgressBar;
class QPushButton;

namespace lizard::ui {

class ProgressStrip : public QFrame
{
    Q_OBJECT
public:
    explicit ProgressStrip(QWidget* parent = nullptr);

    // Stage `step` of `steps` (1-based), e.g. 1 of 2 "Creating sandbox…".
    void setStage(int step, int steps, const QString& text);
    // After Cancel: the text says what is still being undone; Cancel is disabled.
    void setCancelling(const QString& text);
    // A remark kept beside every later stage (e.g. where the sandbox came from).
    void setNote(const QString& note);
    QString text() const;
    QPushButton* cancelButton() const { return m_cancel; }

signals:
    void cancelRequested();

private:
    void setLabel(const QString& html);

    QLabel* m_label;
    QString m_note;
    QProgressBar* m_bar;
    QPushButton* m_cancel;
};

} // namespace lizard::ui
