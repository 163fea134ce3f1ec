#pragma once
// The notebook's find bar, as in a browser: the text to find, "3 of 17", previous and next
// (Shift+Enter / Enter, Shift+F3 / F3), Aa for case, and a replace row (Ctrl+H or the ⇄
// button) with Replace and Replace all. Esc closes it and clears the highlights.

#include <QWidget>

class QLabel;
class QLineEdit;
class QToolButton;

namespace lizard::ui::notebook {

class NotebookFinder;

class FindBar : public QWidget
{
    Q_OBJECT
public:
    explicit FindBar(NotebookFinder* finder, QWidget* parent = nullptr);

    // Shows the bar with the find field focused and its text selected (Ctrl+F).
    void openFind();
    void openReplace(); // Ctrl+H: the replace row too
    void closeBar();

    QLineEdit* findField() const { return m_find; }
    QLineEdit* replaceField() const { return m_replace; }
    QString countText() const;
    QToolButton* caseButton() const { return m_case; }
    bool isReplaceShown() const;

    void findNext();
    void findPrevious();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateQuery();
    void updateCount();
    void setReplaceShown(bool shown);

    NotebookFinder* m_finder;
    QLineEdit* m_find;
    QLabel* m_count;
    QToolButton* m_case;
    QToolButton* m_replaceToggle;
    QWidget* m_replaceRow;
    QLineEdit* m_replace;
    QLabel* m_replaced;
};

} // namespace lizard::ui::notebook
