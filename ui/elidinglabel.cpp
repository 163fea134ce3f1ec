#include "ui/elidinglabel.h"

#include <QResizeEvent>

namespace lizard::ui {

ElidingLabel::ElidingLabel(QWidget* parent) : QLabel(parent)
{
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
}

void ElidingLabel::setFullText(const QString& text)
{
    m_full = text;
    updateGeometry();
    elide();
}

QSize ElidingLabel::sizeHint() const
{
    const QMargins m = contentsMargins();
    return {fontMetrics().horizontalAdvance(m_full) + m.left() + m.right() + 2 * margin(),
            QLabel::sizeHint().height()};
}

QSize ElidingLabel::minimumSizeHint() const
{
    return {qMin(sizeHint().width(), fontMetrics().averageCharWidth() * 8),
            QLabel::minimumSizeHint().height()};
}

void ElidingLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void ElidingLabel::elide()
{
    const QString shown =
        fontMetrics().elidedText(m_full, Qt::ElideRight, contentsRect().width() - 2 * margin());
    QLabel::setText(shown);
    setToolTip(shown == m_full ? QString() : m_full);
}

} // namespace lizard::ui
