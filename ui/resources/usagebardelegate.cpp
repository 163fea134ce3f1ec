#include "ui/resources/usagebardelegate.h"

#include "models/sandboxrow.h"
#include "models/sandboxtablemodel.h"

#include <QApplication>
#include <QPainter>
#include <QStyle>

namespace lizard::ui::resources {

QColor UsageBarDelegate::barColor(double fraction, bool nearLimit)
{
    if (nearLimit || fraction >= 0.9)
        return QColor(0xd3, 0x2f, 0x2f);
    if (fraction >= 0.7)
        return QColor(0xef, 0x9b, 0x0f);
    return QColor(0x2e, 0x9d, 0x4f);
}

void UsageBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const
{
    QStyleOptionViewItem opt(option);
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const double fraction = index.data(models::SandboxTableModel::UsageRole).toDouble();
    const bool near =
        index.column() == models::SandboxColumn::Memory &&
        !index.data(models::SandboxTableModel::NearLimitRole).toStringList().isEmpty();
    const QRect r = option.rect.adjusted(4, 2, -4, -2);
    painter->save();
    if (index.data(models::SandboxTableModel::UsageRole).isValid() && fraction >= 0) {
        // A thin bar along the bottom of the cell, under the text.
        const QRect track(r.left(), r.bottom() - 3, r.width(), 4);
        QColor back = opt.palette.color(QPalette::Mid);
        back.setAlpha(70);
        painter->fillRect(track, back);
        QRect used = track;
        used.setWidth(qMax(fraction > 0 ? 1 : 0, int(track.width() * qMin(1.0, fraction))));
        painter->fillRect(used, barColor(fraction, near));
    }
    const bool selected = opt.state & QStyle::State_Selected;
    painter->setPen(opt.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    if (near && !selected)
        painter->setPen(barColor(1, true));
    painter->drawText(r.adjusted(0, 0, 0, -4), Qt::AlignRight | Qt::AlignVCenter, text);
    painter->restore();
}

QSize UsageBarDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(qMax(s.width(), 90));
    return s;
}

} // namespace lizard::ui::resources
