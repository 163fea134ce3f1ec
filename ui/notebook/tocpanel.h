#pragma once
// The notebook's table of contents, beside the cells: the markdown cells' headings, nested by
// level, rebuilt a moment after the document changes (while shown). Clicking a heading (or
// Enter on it) makes its cell current and scrolls it to the top of the view.

#include "notebook/notebooktoc.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace lizard::notebook {
class DocumentWatcher;
class NotebookDocument;
} // namespace lizard::notebook

namespace lizard::ui::notebook {

class CellListWidget;

class TocPanel : public QWidget
{
    Q_OBJECT
public:
    TocPanel(lizard::notebook::NotebookDocument* document, CellListWidget* cells,
             QWidget* parent = nullptr);

    QTreeWidget* tree() const { return m_tree; }
    const QList<lizard::notebook::TocEntry>& entries() const { return m_entries; }
    // The item of entry i (document order), for tests and the keyboard.
    QTreeWidgetItem* itemFor(int entry) const;
    void jumpTo(int cell);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void rebuild();

    QPointer<lizard::notebook::NotebookDocument> m_document;
    QPointer<CellListWidget> m_cells;
    lizard::notebook::DocumentWatcher* m_watcher;
    QLabel* m_empty;
    QTreeWidget* m_tree;
    QList<lizard::notebook::TocEntry> m_entries;
    QList<QTreeWidgetItem*> m_items;
};

} // namespace lizard::ui::notebook
