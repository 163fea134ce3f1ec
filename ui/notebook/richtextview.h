#pragma once
// A read-only text view for cell outputs whose height follows its content, so the notebook's
// scroll area (not each output) scrolls. Wide content (tables) scrolls sideways.

#include <QTextBrowser>

namespace lizard::ui::notebook {

class RichTextView : public QTextBrowser
{
    Q_OBJECT
public:
    explicit RichTextView(QWidget* parent = nullptr);

    void setMonospace(bool on);
    void setTint(const QColor& background); // e.g. stderr; invalid: none

private:
    void fitHeight();
    void resizeEvent(QResizeEvent* event) override;
};

} // namespace lizard::ui::notebook
