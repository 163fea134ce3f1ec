#include "models/changes/linediff.h"

#include <algorithm>
#include <vector>

namespace lizard::models::changes {

namespace {

enum class Op { Equal, Delete, Insert };

QStringList splitLines(const QString& text)
{
    if (text.isEmpty())
        return {};
    QStringList lines = text.split(QLatin1Char('\n'));
    if (text.endsWith(QLatin1Char('\n')))
        lines.removeLast(); // the last newline ends a line, it does not start one
    return lines;
}

// The shortest edit script from a to b, or an empty optional-like flag when more than `maxD`
// edits are needed. Each V of the forward search is kept (2d+1 entries for step d) to walk
// back along the path.
bool shortestEdit(const QStringList& a, const QStringList& b, int maxD, std::vector<Op>& ops)
{
    const int n = int(a.size()), m = int(b.size());
    const int offset = maxD + 1;
    std::vector<int> v(std::size_t(2 * offset + 1), 0);
    std::vector<std::vector<int>> trace;
    for (int d = 0; d <= maxD; ++d) {
        std::vector<int> snapshot(std::size_t(2 * d + 1));
        for (int k = -d; k <= d; k += 2) {
            int x = (k == -d ||
                     (k != d && v[std::size_t(offset + k - 1)] < v[std::size_t(offset + k + 1)]))
                        ? v[std::size_t(offset + k + 1)]
                        : v[std::size_t(offset + k - 1)] + 1;
            int y = x - k;
            while (x < n && y < m && a[x] == b[y]) {
                ++x;
                ++y;
            }
            v[std::size_t(offset + k)] = x;
            if (x >= n && y >= m) {
                for (int kk = -d; kk <= d; ++kk)
                    snapshot[std::size_t(kk + d)] = v[std::size_t(offset + kk)];
                trace.push_back(std::move(snapshot));
                // Walk back from (n, m) through the kept Vs.
                int cx = n, cy = m;
                for (int dd = int(trace.size()) - 1; dd > 0; --dd) {
                    const std::vector<int>& prev = trace[std::size_t(dd - 1)];
                    const int ck = cx - cy;
                    const auto at = [&](int kk) { return prev[std::size_t(kk + dd - 1)]; };
                    const bool down = ck == -dd || (ck != dd && at(ck - 1) < at(ck + 1));
                    const int pk = down ? ck + 1 : ck - 1;
                    const int px = at(pk), py = px - pk;
                    while (cx > px && cy > py) {
                        ops.push_back(Op::Equal);
                        --cx;
                        --cy;
                    }
                    ops.push_back(down ? Op::Insert : Op::Delete);
                    cx = px;
                    cy = py;
                }
                while (cx > 0 && cy > 0) {
                    ops.push_back(Op::Equal);
                    --cx;
                    --cy;
                }
                std::reverse(ops.begin(), ops.end());
                return true;
            }
        }
        for (int kk = -d; kk <= d; ++kk)
            snapshot[std::size_t(kk + d)] = v[std::size_t(offset + kk)];
        trace.push_back(std::move(snapshot));
    }
    return false;
}

} // namespace

LineDiff diffLines(const QString& oldText, const QString& newText, int maxEdits)
{
    LineDiff out;
    out.oldLines = splitLines(oldText);
    out.newLines = splitLines(newText);
    std::vector<Op> ops;
    if (!shortestEdit(out.oldLines, out.newLines, maxEdits, ops)) {
        out.aligned = false;
        ops.clear();
        ops.insert(ops.end(), std::size_t(out.oldLines.size()), Op::Delete);
        ops.insert(ops.end(), std::size_t(out.newLines.size()), Op::Insert);
    }
    int x = 0, y = 0;
    for (std::size_t i = 0; i < ops.size();) {
        if (ops[i] == Op::Equal) {
            out.rows.push_back({DiffRow::Same, x++, y++});
            ++i;
            continue;
        }
        // A run of deletions and insertions: paired row by row, the longer side's rest alone.
        int dels = 0, ins = 0;
        for (; i < ops.size() && ops[i] != Op::Equal; ++i)
            (ops[i] == Op::Delete ? dels : ins)++;
        out.removed += dels;
        out.added += ins;
        for (int r = 0; r < std::max(dels, ins); ++r) {
            DiffRow row;
            row.left = r < dels ? x + r : -1;
            row.right = r < ins ? y + r : -1;
            row.kind = row.left >= 0 && row.right >= 0 ? DiffRow::Changed
                       : row.left >= 0                 ? DiffRow::Removed
                                                       : DiffRow::Added;
            out.rows.push_back(row);
        }
        x += dels;
        y += ins;
    }
    return out;
}

} // namespace lizard::models::changes
