#pragma once
// Find and replace over a notebook's text: cell sources and the text forms of outputs (stream
// text, text/plain, error tracebacks). Pure functions over stored data, so the find bar runs
// them on a snapshot (NotebookDocument::toData() shares outputs, see OutputList) off the UI
// thread. Replace touches sources only: outputs are what the kernel said, never edited.

#include "notebook/celldata.h"

#include <QList>

namespace lizard::notebook {

struct SearchMatch
{
    enum class Place { InSource, InOutput };
    int cell = -1;
    Place place = Place::InSource;
    int output = -1; // index into the cell's outputs when place is InOutput
    int start = 0;   // in the cell's source, or in outputSearchText(output)
    int length = 0;
    bool operator==(const SearchMatch&) const = default;
};

// Document order: by cell, the source before the outputs, outputs in order, then by start.
bool comesBefore(const SearchMatch& a, const SearchMatch& b);

// The text of an output that find looks at: a stream's text (a spilled stream: the head and
// the tail kept in memory), a rich output's text/plain (else text/markdown, else text/html's
// source), an error's name, value and traceback without ANSI colour codes. Images: none.
QString outputSearchText(const Output& output);

// Every non-overlapping occurrence of needle in text, left to right, as (start, length) pairs.
QList<std::pair<int, int>> findInText(const QString& text, const QString& needle,
                                      Qt::CaseSensitivity cs);

// Every match in the notebook, in document order. An empty needle finds nothing.
QList<SearchMatch> findInNotebook(const NotebookData& data, const QString& needle,
                                  Qt::CaseSensitivity cs);

// The source with every occurrence replaced, and how many there were.
QString replaceAllInText(const QString& text, const QString& needle, const QString& replacement,
                         Qt::CaseSensitivity cs, int* count = nullptr);

} // namespace lizard::notebook
