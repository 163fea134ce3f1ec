#pragma once
// Reads nbformat 4 notebooks (.ipynb). A file that cannot be read gives a NotebookError that
// names the file, the place (line/column for bad JSON, a path like "cells[2].source" for bad
// content) and the problem; nothing is produced in that case.

#include "notebook/celldata.h"
#include "notebook/notebookerror.h"

#include <QByteArray>

namespace lizard::notebook {

class IpynbReader
{
public:
    // fileName only labels errors.
    static Expected<NotebookData> parse(const QByteArray& bytes, const QString& fileName = {});
    static Expected<NotebookData> readFile(const QString& path);

    static constexpr qint64 maxFileSize = qint64(1) << 30; // refuse to slurp more than 1 GiB
    static constexpr int maxNesting = 512;                 // arrays/objects inside each other
};

} // namespace lizard::notebook
