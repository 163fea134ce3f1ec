#include "ui/activity/activebadgedelegate.h"

#include "models/activity/activitypulse.h"

#include <QPainter>

namespace lizard::ui::activity {

ActiveBadgeDelegate::ActiveBadgeDelegate(models::ActivityPulse* pulse, int idRole, QObject* parent)
    : QStyledItemDelegate(parent), m_pulse(pulse), m_idRole(idRole)
{
}

QString ActiveBadgeDelegate::displayText(const QVariant& value, const QLocale& locale) const
{
    return QStringLiteral("    ") +
           QStyledItemDelegate::displayText(value, locale); // room for the dot
}

void ActiveBadgeDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                const QModelIndex& index) const
{
    QStyledItemDelegate::paint(painter, option, index);
    if (!m_pulse || !m_pulse->isActive(index.data(m_idRole).toString()))
        return;
    const int d = std::min(option.rect.height() - 6, 10);
    const QRect dot(option.rect.left() + 4, option.rect.center().y() - d / 2, d, d);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(badgeColor());
    painter->drawEllipse(dot);
    painter->restore();
}

} // namespace lizard::ui::activity
