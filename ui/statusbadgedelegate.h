#pragma once
// The sandbox table's Status cell as a badge: the status text on a rounded tint of its kind
// (running green, paused blue, ending soon orange and saying so, anything else grey), in the colour
// scheme's colours (ThemeColors), so that the state reads at a glance. The kind comes from a role
// of the model (SandboxTableModel::BadgeRole); the text is the cell's own.

#include <QStyledItemDelegate>

namespace lizard::ui {

class StatusBadgeDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit StatusBadgeDelegate(int kindRole, QObject* parent = nullptr);

    // What the badge says: the cell's text, with "· ending soon" in a sandbox's last minutes.
    static QString badgeText(const QString& text, const QString& kind);
    // The badge's background and text colour for a kind, in the scheme in use.
    static QColor background(const QString& kind);
    static QColor foreground(const QString& kind);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int m_kindRole;
};

} // namespace lizard::ui
