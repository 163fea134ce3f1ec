#pragma once
// A page in the main window's document tabs (a notebook, a file editor, a web preview). The
// tab shows title(); a page emits titleChanged when it changes (e.g. "*" for unsaved work) and
// may refuse to close (unsaved changes the user wants to keep).

#include <QWidget>

namespace lizard::ui {

class DocumentPage : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;
    ~DocumentPage() override;

    virtual QString title() const = 0;
    virtual QString toolTip() const { return title(); }
    // The sandbox this page works on (empty: none). Pages of a sandbox that is gone stay open
    // so that unsaved work is not lost; they show the sandbox as gone themselves.
    virtual QString sandboxId() const { return {}; }
    // Asked before the tab closes or the app quits; may ask the user. false keeps it open.
    virtual bool confirmClose() { return true; }

signals:
    void titleChanged();

protected:
    void showEvent(QShowEvent* event) override;
    void hideEvent(QHideEvent* event) override;
};

} // namespace lizard::ui
