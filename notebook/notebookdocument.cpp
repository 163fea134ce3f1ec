#include "notebook/notebookdocument.h"

namespace lizard::notebook {

NotebookDocument::NotebookDocument(QObject* parent) : QObject(parent) {}

NotebookDocument::~NotebookDocument() = default; // cells are QObject children

Cell* NotebookDocument::cell(int index) const
{
    return index >= 0 && index < m_cells.size() ? m_cells.at(index) : nullptr;
}

Cell* NotebookDocument::cellById(const QString& id) const
{
    for (Cell* c : m_cells) {
        if (c->id() == id)
            return c;
    }
    return nullptr;
}

int NotebookDocument::indexOf(const Cell* cell) const
{
    for (int i = 0; i < m_cells.size(); ++i) {
        if (m_cells.at(i) == cell)
            return i;
    }
    return -1;
}

Cell* NotebookDocument::insertCell(int index, CellType type, const QString& source)
{
    index = std::clamp(index, 0, cellCount());
    CellData data;
    data.id = uniqueId(newCellId());
    data.type = type;
    data.source = source;
    auto* c = new Cell(std::move(data), this);
    m_cells.insert(index, c);
    attach(c);
    emit cellInserted(index);
    markEdited();
    return c;
}

bool NotebookDocument::removeCell(int index)
{
    Cell* c = cell(index);
    if (!c)
        return false;
    m_cells.removeAt(index);
    detach(c);
    m_removed.append({c, index});
    emit cellRemoved(index, c);
    if (m_removed.size() > undoLimit)
        delete m_removed.takeFirst().cell;
    markEdited();
    return true;
}

Cell* NotebookDocument::undoRemove()
{
    if (m_removed.isEmpty())
        return nullptr;
    const Removed r = m_removed.takeLast();
    const int index = std::min(r.index, cellCount());
    m_cells.insert(index, r.cell);
    attach(r.cell);
    emit cellInserted(index);
    markEdited();
    return r.cell;
}

bool NotebookDocument::moveCell(int from, int to)
{
    if (from < 0 || from >= cellCount() || to < 0 || to >= cellCount())
        return false;
    if (from == to)
        return true;
    m_cells.move(from, to);
    emit cellMoved(from, to);
    markEdited();
    return true;
}

void NotebookDocument::setMetadata(const nlohmann::json& metadata)
{
    const nlohmann::json value = metadata.is_object() ? metadata : nlohmann::json::object();
    if (value == m_metadata)
        return;
    m_metadata = value;
    emit metadataChanged();
    markEdited();
}

void NotebookDocument::reset(const NotebookData& data, bool modified)
{
    qDeleteAll(m_cells);
    m_cells.clear();
    for (const Removed& r : std::as_const(m_removed))
        delete r.cell;
    m_removed.clear();
    m_metadata = data.metadata.is_object() ? data.metadata : nlohmann::json::object();
    for (const CellData& cd : data.cells) {
        CellData copy = cd;
        copy.id = uniqueId(isValidCellId(cd.id) ? cd.id : newCellId());
        auto* c = new Cell(std::move(copy), this);
        m_cells.append(c);
        attach(c);
    }
    ++m_revision;
    emit documentReset();
    if (modified)
        markEdited();
    else
        setClean();
}

NotebookData NotebookDocument::toData() const
{
    NotebookData data;
    data.metadata = m_metadata;
    data.cells.reserve(m_cells.size());
    for (const Cell* c : m_cells)
        data.cells.push_back(c->data());
    return data;
}

void NotebookDocument::setClean()
{
    if (!m_dirty)
        return;
    m_dirty = false;
    emit dirtyChanged(false);
}

void NotebookDocument::attach(Cell* cell)
{
    connect(cell, &Cell::edited, this, &NotebookDocument::markEdited);
}

void NotebookDocument::detach(Cell* cell)
{
    disconnect(cell, &Cell::edited, this, &NotebookDocument::markEdited);
}

void NotebookDocument::markEdited()
{
    ++m_revision;
    if (m_dirty)
        return;
    m_dirty = true;
    emit dirtyChanged(true);
}

QString NotebookDocument::uniqueId(const QString& wanted) const
{
    QString id = wanted;
    auto taken = [this](const QString& candidate) {
        if (cellById(candidate))
            return true;
        for (const Removed& r : m_removed) {
            if (r.cell->id() == candidate)
                return true;
        }
        return false;
    };
    while (taken(id))
        id = newCellId();
    return id;
}

} // namespace lizard::notebook
