#pragma once
// The table of contents of a notebook: the ATX headings (# to ######) of its markdown cells,
// in document order. Lines inside fenced code blocks (``` or ~~~) are code, not headings.

#include "notebook/celldata.h"

#include <QList>

namespace lizard::notebook {

class NotebookDocument;

struct TocEntry
{
    int cell = -1; // index of the markdown cell
    int level = 1; // 1 for #, 6 for ######
    QString title; // the heading's text, without the #s and the emphasis marks around words
    bool operator==(const TocEntry&) const = default;
};

// The headings of one markdown source (cell left at -1).
QList<TocEntry> headingsIn(const QString& markdown);
QList<TocEntry> tableOfContents(const NotebookDocument& document);

} // namespace lizard::notebook
