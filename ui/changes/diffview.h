#pragma once
// Two versions of a text file side by side: the template's on the left, the sandbox's on the
// right, each line with its number, removed lines tinted red, added ones green, striped rows
// where a side has no line. Both sides scroll together. The comparison runs off the UI thread
// and the sides are tables that draw only the rows in view, so a file of megabytes never
// holds up the window.

#include <QWidget>
#include <memory>

class QLabel;
class QStackedWidget;
class QTableView;

namespace lizard::ui::changes {

class DiffSideModel;

class DiffView : public QWidget
{
    Q_OBJECT
public:
    explicit DiffView(QWidget* parent = nullptr);

    // `before` / `after`: null (a side that has no file) or the bytes. The comparison is
    // shown when `shown` is emitted; until then the view keeps what it showed and says
    // "Comparing…".
    void showTexts(const QString& title, const QByteArray* before, const QByteArray* after);
    void showMessage(const QString& title, const QString& text);
    void clear(); // nothing selected: says what the view is for
    // What the left side is ("the template", "sandbox sb_…"): said where it has no file.
    void setReferenceName(const QString& name) { m_reference = name; }

    QString title() const;
    QString leftText() const;
    QString rightText() const;
    QString summary() const;
    QTableView* leftSide() const { return m_left; }
    QTableView* rightSide() const { return m_right; }

signals:
    // The texts given to showTexts (or the message that replaced them) are on screen.
    void shown(const QString& title);

private:
    void retint();
    void showMessageOnly(const QString& title, const QString& text);

    QLabel* m_title;
    QLabel* m_summary;
    QStackedWidget* m_pages;
    QLabel* m_message;
    QTableView* m_left;
    QTableView* m_right;
    DiffSideModel* m_leftModel;
    DiffSideModel* m_rightModel;
    quint64 m_request = 0; // the latest comparison asked for; older answers are dropped
    QString m_reference = QStringLiteral("the template");
};

} // namespace lizard::ui::changes
