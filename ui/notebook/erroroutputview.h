#pragma once
// An error output: the traceback with its ANSI colours, or "name: message" when it has none.

#include "ui/notebook/outputview.h"

namespace lizard::ui::notebook {

class RichTextView;

class ErrorOutputView : public OutputView
{
    Q_OBJECT
public:
    explicit ErrorOutputView(const lizard::notebook::ErrorOutput& output,
                             QWidget* parent = nullptr);

    bool setOutput(const lizard::notebook::Output& output) override;
    QString plainText() const override;
    RichTextView* textView() const { return m_text; }

private:
    void show(const lizard::notebook::ErrorOutput& output);

    RichTextView* m_text;
};

} // namespace lizard::ui::notebook
