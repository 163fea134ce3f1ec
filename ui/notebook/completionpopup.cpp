#include "ui/notebook/completionpopup.h"

#include <QFontDatabase>
#include <QScreen>

namespace lizard::ui::notebook {

namespace {
constexpr int kMatchRole = Qt::UserRole;
constexpr int kKindRole = Qt::UserRole + 1;
constexpr int kMaxRows = 10;
} // namespace

CompletionPopup::CompletionPopup(QWidget* parent) : QListWidget(parent)
{
    setWindowFlags(Qt::ToolTip | Qt::FramelessWindowHint);
    setAttribute(Qt::WA_ShowWithoutActivating);
    setFocusPolicy(Qt::NoFocus);
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setUniformItemSizes(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setObjectName(QStringLiteral("completionPopup"));
}

void CompletionPopup::setMatches(const QList<lizard::notebook::Completion>& matches)
{
    clear();
    int width = 0;
    for (const auto& m : matches) {
        width = std::max(width, int(m.text.size()));
    }
    for (const auto& m : matches) {
        // The kind in a column of its own, as JupyterLab shows it.
        auto* item = new QListWidgetItem(
            m.type.isEmpty() ? m.text : m.text.leftJustified(width + 2) + m.type, this);
        item->setData(kMatchRole, m.text);
        item->setData(kKindRole, m.type);
    }
}

bool CompletionPopup::filter(const QString& prefix)
{
    int first = -1;
    for (int i = 0; i < count(); ++i) {
        const bool shown =
            item(i)->data(kMatchRole).toString().startsWith(prefix, Qt::CaseInsensitive);
        item(i)->setHidden(!shown);
        if (shown && first < 0)
            first = i;
    }
    if (first >= 0 && (!currentItem() || currentItem()->isHidden()))
        setCurrentRow(first);
    return first >= 0;
}

QStringList CompletionPopup::visibleMatches() const
{
    QStringList out;
    for (int i = 0; i < count(); ++i) {
        if (!item(i)->isHidden())
            out << item(i)->data(kMatchRole).toString();
    }
    return out;
}

QString CompletionPopup::currentMatch() const
{
    return currentItem() && !currentItem()->isHidden() ? currentItem()->data(kMatchRole).toString()
                                                       : QString();
}

QString CompletionPopup::kindOf(const QString& match) const
{
    for (int i = 0; i < count(); ++i) {
        if (item(i)->data(kMatchRole).toString() == match)
            return item(i)->data(kKindRole).toString();
    }
    return {};
}

void CompletionPopup::moveSelection(int rows)
{
    int row = currentRow();
    const int step = rows < 0 ? -1 : 1;
    for (int left = std::abs(rows); left > 0;) {
        const int next = row + step;
        if (next < 0 || next >= count())
            break;
        row = next;
        if (!item(row)->isHidden())
            --left;
    }
    if (row >= 0 && row < count() && !item(row)->isHidden())
        setCurrentRow(row);
}

void CompletionPopup::showAt(const QPoint& globalPos)
{
    const int rows = std::min(kMaxRows, int(visibleMatches().size()));
    const int rowHeight = std::max(sizeHintForRow(0), fontMetrics().height());
    resize(std::max(160, sizeHintForColumn(0) + 24), rows * rowHeight + 2 * frameWidth() + 4);
    move(globalPos);
    show();
    raise();
    if (currentItem())
        scrollToItem(currentItem());
}

} // namespace lizard::ui::notebook
