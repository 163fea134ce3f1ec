#include "ui/notebook/cellcolumnlayout.h"

#include <QWidget>

namespace lizard::ui::notebook {

CellColumnLayout::~CellColumnLayout()
{
    while (QLayoutItem* item = takeAt(0))
        delete item;
}

void CellColumnLayout::insertWidget(int index, QWidget* widget)
{
    addChildWidget(widget);
    m_items.insert(std::clamp(index, 0, count()), new QWidgetItemV2(widget));
    invalidate();
}

void CellColumnLayout::addItem(QLayoutItem* item)
{
    m_items.append(item);
    invalidate();
}

QLayoutItem* CellColumnLayout::itemAt(int index) const
{
    return index >= 0 && index < m_items.size() ? m_items[index] : nullptr;
}

QLayoutItem* CellColumnLayout::takeAt(int index)
{
    if (index < 0 || index >= m_items.size())
        return nullptr;
    QLayoutItem* item = m_items.takeAt(index);
    invalidate();
    return item;
}

void CellColumnLayout::invalidate()
{
    m_cachedWidth = -1;
    QLayout::invalidate();
}

int CellColumnLayout::itemHeight(QLayoutItem* item, int width) const
{
    const int h =
        item->hasHeightForWidth() ? item->heightForWidth(width) : item->sizeHint().height();
    return std::clamp(h, item->minimumSize().height(), item->maximumSize().height());
}

int CellColumnLayout::columnHeight(int width) const
{
    if (width == m_cachedWidth)
        return m_cachedHeight;
    const QMargins m = contentsMargins();
    const int inner = width - m.left() - m.right();
    int height = m.top() + m.bottom();
    int shown = 0;
    for (QLayoutItem* item : m_items) {
        if (item->isEmpty())
            continue;
        height += itemHeight(item, inner);
        ++shown;
    }
    height += std::max(0, shown - 1) * spacing();
    m_cachedWidth = width;
    m_cachedHeight = height;
    return height;
}

int CellColumnLayout::heightForWidth(int width) const
{
    return columnHeight(width);
}

QSize CellColumnLayout::sizeHint() const
{
    const QMargins m = contentsMargins();
    int width = 0;
    for (QLayoutItem* item : m_items)
        width = std::max(width, item->sizeHint().width());
    width += m.left() + m.right();
    return {width, columnHeight(width)};
}

QSize CellColumnLayout::minimumSize() const
{
    // The height comes from heightForWidth at the column's width (QScrollArea asks for it).
    const QMargins m = contentsMargins();
    int width = 0;
    for (QLayoutItem* item : m_items)
        width = std::max(width, item->minimumSize().width());
    return {width + m.left() + m.right(), m.top() + m.bottom()};
}

void CellColumnLayout::setGeometry(const QRect& rect)
{
    QLayout::setGeometry(rect);
    const QRect inner = rect.marginsRemoved(contentsMargins());
    int y = inner.top();
    for (QLayoutItem* item : m_items) {
        if (item->isEmpty())
            continue;
        const QRect place(inner.left(), y, inner.width(), itemHeight(item, inner.width()));
        if (item->geometry() != place) // the cells that did not move are left alone
            item->setGeometry(place);
        y += place.height() + spacing();
    }
}

} // namespace lizard::ui::notebook
