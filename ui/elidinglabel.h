#pragma once
// A one-line label that takes the room its layout gives it and asks for no more than a few
// characters: a text too long for that room ends in "…" and is whole in the tooltip. A plain
// QLabel asks for its whole text's width, so one long message (a server's error in a notebook's
// header) widens the whole window.

#include <QLabel>

namespace lizard::ui {

class ElidingLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidingLabel(QWidget* parent = nullptr);

    void setFullText(const QString& text);
    QString fullText() const { return m_full; }
    // Whether the text shown is cut short.
    bool isElided() const { return text() != m_full; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();

    QString m_full;
};

} // namespace lizard::ui
