#pragma once
// Two versions of a text file side by side: the template's on the left, the sandbox's on the
// right, removed lines tinted red, added ones green, blank cells where a side has no line.
// Both sides scroll together.

#include <QVector>
#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace lizard::ui::changes {

class DiffView : public QWidget
{
    Q_OBJECT
public:
    explicit DiffView(QWidget* parent = nullptr);

    // `before` / `after`: null (a side that has no file) or the bytes.
    void showTexts(const QString& title, const QByteArray* before, const QByteArray* after);
    void showMessage(const QString& title, const QString& text);
    void clear(); // nothing selected: says what the view is for
    // What the left side is ("the template", "sandbox sb_…"): said where it has no file.
    void setReferenceName(const QString& name) { m_reference = name; }

    QString title() const;
    QString leftText() const;
    QString rightText() const;
    QString summary() const;

private:
    void retint();

    QLabel* m_title;
    QLabel* m_summary;
    QPlainTextEdit* m_left;
    QPlainTextEdit* m_right;
    QVector<char> m_leftCells, m_rightCells; // per row: plain, changed or blank
    QString m_reference = QStringLiteral("the template");
};

} // namespace lizard::ui::changes
