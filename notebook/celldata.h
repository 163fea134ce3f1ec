#pragma once
// Plain values for a notebook as it is stored: what .ipynb reading produces and writing
// consumes. The live document (NotebookDocument, Cell) is built from and exported to these.

#include "notebook/celltypes.h"
#include "notebook/outputlist.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

namespace lizard::notebook {

struct CellData
{
    QString id; // nbformat 4.5 cell id; empty means "give it one"
    CellType type = CellType::Code;
    QString source;
    OutputList outputs;                                 // code cells only (shared, see OutputList)
    std::optional<int> executionCount;                  // code cells only
    nlohmann::json metadata = nlohmann::json::object(); // every key kept
    nlohmann::json attachments; // markdown/raw "attachments", null when absent
    bool operator==(const CellData&) const = default;
};

struct NotebookData
{
    nlohmann::json metadata = nlohmann::json::object(); // kernelspec, language_info, the rest
    std::vector<CellData> cells;
    bool operator==(const NotebookData&) const = default;
};

// A fresh nbformat-compatible cell id (8 characters of [0-9a-f], as nbformat makes them).
QString newCellId();
// nbformat 4.5: 1 to 64 characters of [a-zA-Z0-9-_].
bool isValidCellId(const QString& id);

} // namespace lizard::notebook
