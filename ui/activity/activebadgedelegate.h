#pragma once
// The sandbox list's "active now" badge: a green dot before the id of a sandbox that ran a
// command or code in the last few seconds (models/activity/activitypulse.h).

#include <QPointer>
#include <QStyledItemDelegate>

namespace lizard::models {
class ActivityPulse;
}

namespace lizard::ui::activity {

class ActiveBadgeDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    ActiveBadgeDelegate(models::ActivityPulse* pulse, int idRole, QObject* parent = nullptr);
    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QString displayText(const QVariant& value, const QLocale& locale) const override;
    static QColor badgeColor() { return QColor(0x2e, 0xa0, 0x43); }

private:
    QPointer<models::ActivityPulse> m_pulse;
    int m_idRole;
};

} // namespace lizard::ui::activity
