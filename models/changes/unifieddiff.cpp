#include "models/changes/unifieddiff.h"

#include "models/changes/linediff.h"

#include <algorithm>
#include <vector>

namespace lizard::models::changes {

namespace {

constexpr int kContext = 3;
// Ends the text of a last line that has no newline: the line differs from the same line with
// one (as GNU diff sees it) and is written with diff's "\ No newline" mark. A noncharacter:
// Latin-1 text never holds it.
const QChar kNoNewline(0xFDD0);

bool binary(const QByteArray& data)
{
    return data.left(8000).contains('\0');
}

QString asText(const std::optional<QByteArray>& side)
{
    if (!side || side->isEmpty())
        return {};
    QString text = QString::fromLatin1(*side);
    if (!text.endsWith(QLatin1Char('\n')))
        text += kNoNewline;
    return text;
}

struct Line
{
    char tag; // ' ', '-' or '+'
    QString text;
    int oldBefore; // old lines before this one
    int newBefore; // new lines before this one
};

// The lines of the diff in order: each run of changes as its removed lines, then its added ones.
std::vector<Line> diffBody(const QString& oldText, const QString& newText)
{
    // Past the line diff's bound on edits the file is replaced whole: still a correct patch,
    // only a longer one.
    const LineDiff d = diffLines(oldText, newText);
    std::vector<Line> lines;
    int x = 0, y = 0;
    for (qsizetype i = 0; i < d.rows.size();) {
        if (d.rows[i].kind == DiffRow::Same) {
            lines.push_back({' ', d.oldLines[d.rows[i].left], x++, y++});
            ++i;
            continue;
        }
        qsizetype end = i;
        while (end < d.rows.size() && d.rows[end].kind != DiffRow::Same)
            ++end;
        for (qsizetype r = i; r < end; ++r)
            if (d.rows[r].left >= 0)
                lines.push_back({'-', d.oldLines[d.rows[r].left], x++, y});
        for (qsizetype r = i; r < end; ++r)
            if (d.rows[r].right >= 0)
                lines.push_back({'+', d.newLines[d.rows[r].right], x, y++});
        i = end;
    }
    return lines;
}

void appendLine(QByteArray& out, char tag, const QString& text)
{
    out += tag;
    if (text.endsWith(kNoNewline)) {
        out += text.chopped(1).toLatin1();
        out += "\n\\ No newline at end of file\n";
    } else {
        out += text.toLatin1();
        out += '\n';
    }
}

// "start,count" as a hunk header says it: a range of no lines starts at the line before it.
QByteArray range(int before, int count)
{
    const int start = count == 0 ? before : before + 1;
    return count == 1 ? QByteArray::number(start)
                      : QByteArray::number(start) + ',' + QByteArray::number(count);
}

void appendHunks(QByteArray& out, const std::vector<Line>& lines)
{
    const int n = int(lines.size());
    for (int i = 0; i < n;) {
        if (lines[std::size_t(i)].tag == ' ') {
            ++i;
            continue;
        }
        // Changes closer than twice the context share a hunk.
        int last = i, j = i;
        for (; j < n; ++j) {
            if (lines[std::size_t(j)].tag != ' ')
                last = j;
            else if (j - last > 2 * kContext)
                break;
        }
        const int start = std::max(0, i - kContext);
        const int end = std::min(n, last + kContext + 1);
        int oldCount = 0, newCount = 0;
        for (int k = start; k < end; ++k) {
            oldCount += lines[std::size_t(k)].tag != '+' ? 1 : 0;
            newCount += lines[std::size_t(k)].tag != '-' ? 1 : 0;
        }
        const Line& first = lines[std::size_t(start)];
        out += "@@ -" + range(first.oldBefore, oldCount) + " +" + range(first.newBefore, newCount) +
               " @@\n";
        for (int k = start; k < end; ++k)
            appendLine(out, lines[std::size_t(k)].tag, lines[std::size_t(k)].text);
        i = end;
    }
}

} // namespace

QByteArray unifiedDiff(const QString& path, const std::optional<QByteArray>& before,
                       const std::optional<QByteArray>& after, int mode)
{
    if (before && after && *before == *after)
        return {};
    const QByteArray name = (path.startsWith(QLatin1Char('/')) ? path.mid(1) : path).toUtf8();
    const QByteArray fileMode = (mode & 0111) != 0 ? "100755" : "100644";
    QByteArray out = "diff --git a/" + name + " b/" + name + '\n';
    if (!before)
        out += "new file mode " + fileMode + '\n';
    if (!after)
        out += "deleted file mode " + fileMode + '\n';
    const QByteArray from = before ? "a/" + name : QByteArray("/dev/null");
    const QByteArray to = after ? "b/" + name : QByteArray("/dev/null");
    if ((before && binary(*before)) || (after && binary(*after)))
        return out + "Binary files " + from + " and " + to + " differ\n";
    if ((before ? before->size() : 0) + (after ? after->size() : 0) == 0)
        return out; // an empty file added or deleted: the header says it all
    out += "--- " + from + "\n+++ " + to + '\n';
    appendHunks(out, diffBody(asText(before), asText(after)));
    return out;
}

} // namespace lizard::models::changes
