#pragma once
// The sandbox table's CPU and Memory cells: the figure's text over a small bar of how much of
// its limit it uses (SandboxTableModel::UsageRole), red when the sandbox is near a limit
// (NearLimitRole), amber from 70 %.

#include <QStyledItemDelegate>

namespace lizard::ui::resources {

class UsageBarDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // The bar's colour for a fraction of the limit (and whether the sandbox is near one).
    static QColor barColor(double fraction, bool nearLimit);
};

} // namespace lizard::ui::resources
