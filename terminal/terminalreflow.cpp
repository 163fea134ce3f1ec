#include "terminal/terminalreflow.h"

#include <algorithm>

namespace lizard::terminal {

namespace {

// Cuts one logical line into rows of at most `cols` cells, appended to `out`.
void cutLine(const std::vector<GridCell>& line, size_t cols, std::vector<ReflowRow>& out)
{
    size_t at = 0;
    do {
        size_t end = std::min(line.size(), at + cols);
        // A wide character whose right half would start the next row moves there whole.
        if (end < line.size() && end > at + 1 && line[end - 1].width == 2)
            --end;
        ReflowRow row;
        row.cells.assign(line.begin() + long(at), line.begin() + long(end));
        at = end;
        row.wrapped = at < line.size();
        out.push_back(std::move(row));
    } while (at < line.size());
}

// The row and column of `offset` cells into the line whose rows start at out[first].
ReflowPoint place(std::vector<ReflowRow>& out, size_t first, size_t offset, size_t cols)
{
    size_t k = first;
    size_t base = 0;
    while (k + 1 < out.size() && out[k].wrapped && offset >= base + out[k].cells.size()) {
        base += out[k].cells.size();
        ++k;
    }
    size_t col = offset - base;
    // Past the right margin (the end of a full row, or a cursor beyond the text): the line
    // goes on in empty continuation rows, as it would once the next character came.
    while (col >= cols) {
        col -= cols;
        out[k].wrapped = true;
        out.insert(out.begin() + long(k) + 1, ReflowRow{});
        ++k;
    }
    return {int(k), int(col)};
}

} // namespace

std::vector<ReflowRow> reflowRows(const std::vector<ReflowRow>& rows, int cols,
                                  std::vector<ReflowPoint*> points)
{
    const size_t width = size_t(std::max(1, cols));
    std::vector<ReflowRow> out;
    out.reserve(rows.size());
    std::vector<GridCell> line;
    std::vector<std::pair<ReflowPoint*, size_t>> inLine; // points of this line, their offsets
    size_t i = 0;
    while (i < rows.size()) {
        line.clear();
        inLine.clear();
        bool more = true;
        while (more && i < rows.size()) {
            for (ReflowPoint* p : points) {
                if (p->row == int(i))
                    inLine.emplace_back(p, line.size() + size_t(std::max(0, p->col)));
            }
            line.insert(line.end(), rows[i].cells.begin(), rows[i].cells.end());
            more = rows[i].wrapped;
            ++i;
        }
        const size_t first = out.size();
        cutLine(line, width, out);
        // In order of offset, so that rows a point adds come after those of earlier points.
        std::sort(inLine.begin(), inLine.end(),
                  [](const auto& a, const auto& b) { return a.second < b.second; });
        for (auto& [point, offset] : inLine)
            *point = place(out, first, offset, width);
    }
    return out;
}

} // namespace lizard::terminal
