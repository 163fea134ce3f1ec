#pragma once
// The notebook document: an ordered list of cells plus notebook metadata, with an undo stack
// for deletions and a dirty flag. A plain model: no widgets, no files, no network.

#include "notebook/cell.h"

#include <QList>
#include <QObject>

namespace lizard::notebook {

class NotebookDocument : public QObject
{
    Q_OBJECT
public:
    explicit NotebookDocument(QObject* parent = nullptr);
    ~NotebookDocument() override;

    int cellCount() const { return int(m_cells.size()); }
    Cell* cell(int index) const; // nullptr when out of range
    Cell* cellById(const QString& id) const;
    int indexOf(const Cell* cell) const; // -1 when not in the document (e.g. deleted)

    // index is clamped to [0, cellCount()]. Returns the new cell (owned by the document).
    Cell* insertCell(int index, CellType type, const QString& source = {});
    // Removes the cell; it (with its outputs) goes on the undo stack. False if out of range.
    bool removeCell(int index);
    bool canUndoRemove() const { return !m_removed.isEmpty(); }
    // Puts the most recently removed cell back at its old index. Returns the restored cell,
    // nullptr when there is nothing to undo. The stack keeps the last undoLimit removals.
    Cell* undoRemove();
    // Moves the cell at from so that it ends up at index to. False if either is out of range.
    bool moveCell(int from, int to);

    const nlohmann::json& metadata() const { return m_metadata; }
    void setMetadata(const nlohmann::json& metadata);

    // Replaces everything (a file was opened). Clears the undo stack. The result is clean,
    // unless modified is set (content restored from a recovery copy differs from the file).
    void reset(const NotebookData& data, bool modified = false);
    NotebookData toData() const;

    bool isDirty() const { return m_dirty; }
    void setClean(); // called after a save
    // Grows with every edit; lets autosave tell whether anything changed since it last wrote.
    quint64 revision() const { return m_revision; }

    static constexpr int undoLimit = 100;

signals:
    void cellInserted(int index);
    // The cell still exists (on the undo stack) when this is emitted.
    void cellRemoved(int index, lizard::notebook::Cell* cell);
    void cellMoved(int from, int to);
    void metadataChanged();
    void documentReset();
    void dirtyChanged(bool dirty);

private:
    struct Removed
    {
        Cell* cell;
        int index;
    };
    void attach(Cell* cell);
    void detach(Cell* cell);
    void markEdited();
    QString uniqueId(const QString& wanted) const;

    QList<Cell*> m_cells;
    QList<Removed> m_removed;
    nlohmann::json m_metadata = nlohmann::json::object();
    bool m_dirty = false;
    quint64 m_revision = 0;
};

} // namespace lizard::notebook
