#pragma once
// One output of a cell, shown. Made by createOutputView (outputviewfactory.h); a view that can
// show a changed output (a stream that grew, an updated display) takes it in setOutput.

#include "notebook/output.h"

#include <QWidget>

namespace lizard::ui::notebook {

class OutputView : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;
    ~OutputView() override;

    // Shows the new value of the same output. false when this view cannot show it (another
    // type): the caller makes a new view.
    virtual bool setOutput(const lizard::notebook::Output& output) = 0;
    // What a test or the user's copy sees: the text of the output (no markup).
    virtual QString plainText() const = 0;
    // Shows at once what a timer would show a moment later (a stream batches its repaints).
    virtual void flush() {}
};

} // namespace lizard::ui::notebook
