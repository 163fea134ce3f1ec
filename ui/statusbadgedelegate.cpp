#include "ui/statusbadgedelegate.h"

#include "ui/theme/themecolors.h"

#include <QApplication>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>

namespace lizard::ui {

namespace {
constexpr int kPadX = 8;    // text to the badge's edge
constexpr int kMarginX = 4; // badge to the cell's edge
constexpr int kMarginY = 3;
} // namespace

StatusBadgeDelegate::StatusBadgeDelegate(int kindRole, QObject* parent)
    : QStyledItemDelegate(parent), m_kindRole(kindRole)
{
}

QString StatusBadgeDelegate::badgeText(const QString& text, const QString& kind)
{
    return kind == u"ending" && !text.isEmpty() ? text + QStringLiteral(" · ending soon") : text;
}

QColor StatusBadgeDelegate::background(const QString& kind)
{
    const ThemeColors& c = ThemeColors::current();
    if (kind == u"running")
        return c.badgeRunningBackground;
    if (kind == u"paused")
        return c.badgePausedBackground;
    if (kind == u"ending")
        return c.badgeEndingBackground;
    return c.badgeOtherBackground;
}

QColor StatusBadgeDelegate::foreground(const QString& kind)
{
    const ThemeColors& c = ThemeColors::current();
    if (kind == u"running")
        return c.badgeRunningText;
    if (kind == u"paused")
        return c.badgePausedText;
    if (kind == u"ending")
        return c.badgeEndingText;
    return c.badgeOtherText;
}

void StatusBadgeDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                const QModelIndex& index) const
{
    // The cell as usual (selection, alternate row), without its text: the badge carries it.
    QStyleOptionViewItem cell = option;
    initStyleOption(&cell, index);
    const QString kind = index.data(m_kindRole).toString();
    const QString text = badgeText(cell.text, kind);
    cell.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &cell, painter, widget);
    if (text.isEmpty())
        return;

    const QFontMetrics metrics(cell.font);
    const int height = std::min(option.rect.height() - 2 * kMarginY, metrics.height() + 4);
    const QRect room = option.rect.adjusted(kMarginX, 0, -kMarginX, 0);
    const int width = std::min(room.width(), metrics.horizontalAdvance(text) + 2 * kPadX);
    const QRectF badge(room.left(), option.rect.center().y() - height / 2.0 + 0.5, width, height);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QPainterPath path;
    path.addRoundedRect(badge, height / 2.0, height / 2.0);
    painter->fillPath(path, background(kind));
    painter->setPen(foreground(kind));
    painter->setFont(cell.font);
    const QString shown =
        metrics.elidedText(text, Qt::ElideRight, int(badge.width()) - 2 * kPadX + 2);
    painter->drawText(badge.adjusted(kPadX, 0, -kPadX + 2, 0), Qt::AlignLeft | Qt::AlignVCenter,
                      shown);
    painter->restore();
}

QSize StatusBadgeDelegate::sizeHint(const QStyleOptionViewItem& option,
                                    const QModelIndex& index) const
{
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    const QString text = index.data().toString();
    const QString shown = badgeText(text, index.data(m_kindRole).toString());
    const QFontMetrics metrics(option.font);
    size.rwidth() += metrics.horizontalAdvance(shown) - metrics.horizontalAdvance(text) +
                     2 * kPadX + 2 * kMarginX;
    size.rheight() = std::max(size.height(), QFontMetrics(option.font).height() + 4 + 2 * kMarginY);
    return size;
}

} // namespace lizard::ui
