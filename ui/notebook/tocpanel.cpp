#include "ui/notebook/tocpanel.h"

#include "notebook/documentwatcher.h"
#include "notebook/notebookdocument.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using namespace lizard::notebook;

TocPanel::TocPanel(NotebookDocument* document, CellListWidget* cells, QWidget* parent)
    : QWidget(parent), m_document(document), m_cells(cells),
      m_watcher(new DocumentWatcher(document, 300, this)), m_empty(new QLabel),
      m_tree(new QTreeWidget)
{
    setObjectName(QStringLiteral("tocPanel"));
    auto* title = new QLabel(QStringLiteral("<b>Contents</b>"));
    m_empty->setText(QStringLiteral(
        "No headings yet: lines starting with # in markdown cells make the contents."));
    m_empty->setWordWrap(true);
    m_empty->setObjectName(QStringLiteral("tocEmpty"));
    QPalette muted = m_empty->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    m_empty->setPalette(muted);
    m_tree->setObjectName(QStringLiteral("tocTree"));
    m_tree->setHeaderHidden(true);
    m_tree->setRootIsDecorated(true);
    m_tree->setExpandsOnDoubleClick(false);
    m_tree->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 0, 0);
    layout->addWidget(title);
    layout->addWidget(m_empty);
    layout->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemClicked, this,
            [this](QTreeWidgetItem* item) { jumpTo(item->data(0, Qt::UserRole).toInt()); });
    connect(m_tree, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem* item) { jumpTo(item->data(0, Qt::UserRole).toInt()); });
    connect(m_watcher, &DocumentWatcher::changed, this, [this] {
        if (isVisible())
            rebuild();
    });
    rebuild();
}

QTreeWidgetItem* TocPanel::itemFor(int entry) const
{
    return entry >= 0 && entry < m_items.size() ? m_items[entry] : nullptr;
}

void TocPanel::showEvent(QShowEvent* event)
{
    rebuild(); // changes while hidden were not followed
    QWidget::showEvent(event);
}

void TocPanel::rebuild()
{
    if (!m_document)
        return;
    const QList<TocEntry> entries = tableOfContents(*m_document);
    if (entries == m_entries && !m_items.isEmpty())
        return; // typing in a paragraph changes nothing here: keep the tree (and its scroll)
    m_entries = entries;
    m_tree->clear();
    m_items.clear();
    // A heading goes under the nearest heading above it of a smaller level.
    QList<std::pair<int, QTreeWidgetItem*>> open;
    for (const TocEntry& entry : m_entries) {
        while (!open.isEmpty() && open.last().first >= entry.level)
            open.removeLast();
        auto* item =
            open.isEmpty() ? new QTreeWidgetItem(m_tree) : new QTreeWidgetItem(open.last().second);
        item->setText(0, entry.title);
        item->setToolTip(0, entry.title);
        item->setData(0, Qt::UserRole, entry.cell);
        if (entry.level == 1) {
            QFont bold = item->font(0);
            bold.setBold(true);
            item->setFont(0, bold);
        }
        open.append({entry.level, item});
        m_items.append(item);
    }
    m_tree->expandAll();
    m_empty->setVisible(m_entries.isEmpty());
}

void TocPanel::jumpTo(int cell)
{
    if (!m_cells || cell < 0 || cell >= m_cells->count())
        return;
    if (m_cells->mode() == CellListWidget::Mode::Edit)
        m_cells->enterCommandMode();
    m_cells->setCurrentIndex(cell);
    // The heading at the top of the view, after the list's own reveal of the cell.
    QPointer<CellListWidget> cells(m_cells);
    QMetaObject::invokeMethod(
        m_cells,
        [cells, cell] {
            if (!cells || !cells->cellWidget(cell))
                return;
            QScrollBar* bar = cells->verticalScrollBar();
            bar->setValue(std::min(bar->maximum(), std::max(0, cells->cellWidget(cell)->y() - 4)));
        },
        Qt::QueuedConnection);
    m_cells->setFocus(Qt::OtherFocusReason);
}

} // namespace lizard::ui::notebook
