#pragma once
// A line diff of two texts (Myers' O(ND) algorithm) as rows for a side-by-side view: equal
// lines beside each other, a run of removed lines beside the run of added lines that replaced
// it, and blank cells where one side has no line. Past `maxEdits` differences it gives up on
// alignment and shows the texts as wholly replaced (a file rewritten from scratch needs no
// alignment, and the search would cost quadratic memory).

#include <QString>
#include <QStringList>
#include <QVector>

namespace lizard::models::changes {

struct DiffRow
{
    enum Kind { Same, Removed, Added, Changed };
    Kind kind = Same;
    int left = -1;  // line index in the old text, -1: none on this row
    int right = -1; // line index in the new text
};

struct LineDiff
{
    QStringList oldLines;
    QStringList newLines;
    QVector<DiffRow> rows;
    int removed = 0;
    int added = 0;
    bool aligned = true; // false: too different, shown as replaced
};

LineDiff diffLines(const QString& oldText, const QString& newText, int maxEdits = 4000);

} // namespace lizard::models::changes
