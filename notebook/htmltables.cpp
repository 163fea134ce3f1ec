#include "notebook/htmltables.h"

#include <QList>
#include <QRegularExpression>
#include <algorithm>

namespace lizard::notebook {

namespace {

const QString kHead = QStringLiteral("lz-head");
const QString kEven = QStringLiteral("lz-even");

struct HtmlCell
{
    qsizetype tagStart = 0, tagEnd = 0; // the opening tag
    qsizetype contentStart = 0, contentEnd = -1;
    QString name, attrs;
    int row = 0, column = 0, span = 1;
    bool holdsTable = false; // a nested table: never a number, whatever its text
};

struct HtmlRow
{
    qsizetype tagStart = 0, tagEnd = 0;
    QString name, attrs;
    bool inHead = false;
    bool allTh = true;
    QList<int> cells; // indexes into HtmlTable::cells
};

struct HtmlTable
{
    qsizetype tagStart = 0, tagEnd = 0;
    QString name, attrs;
    bool inHead = false;
    QList<HtmlRow> rows;
    QList<HtmlCell> cells;
    int openCell = -1;
    int column = 0;
};

struct HtmlEdit
{
    qsizetype start, end;
    QString text;
};

bool isNumber(const QString& html)
{
    static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
    static const QRegularExpression number(
        QStringLiteral("^(?:[-+−]?(?:\\d[\\d,]*(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?%?|-?(?:NaN|"
                       "nan|inf|-inf))$"));
    QString text = html;
    text.remove(tags).replace(QLatin1String("&nbsp;"), QLatin1String(" "));
    text.replace(QLatin1String("&minus;"), QLatin1String("-"));
    return number.match(text.trimmed()).hasMatch();
}

bool isEmptyCell(const QString& html)
{
    static const QRegularExpression tags(QStringLiteral("<[^>]*>"));
    QString text = html;
    return text.remove(tags)
        .replace(QLatin1String("&nbsp;"), QLatin1String(" "))
        .trimmed()
        .isEmpty();
}

bool hasOwnAlignment(const QString& attrs)
{
    static const QRegularExpression align(QStringLiteral("(?:^|\\s)align\\s*=|text-align\\s*:"),
                                          QRegularExpression::CaseInsensitiveOption);
    return attrs.contains(align);
}

int spanOf(const QString& attrs)
{
    static const QRegularExpression colspan(QStringLiteral("colspan\\s*=\\s*[\"']?(\\d+)"),
                                            QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = colspan.match(attrs);
    return m.hasMatch() ? std::max(1, m.captured(1).toInt()) : 1;
}

// attrs with cls added to its class attribute (or given one).
QString withClass(const QString& attrs, const QString& cls)
{
    static const QRegularExpression classAttr(
        QStringLiteral("(\\bclass\\s*=\\s*)(?:\"([^\"]*)\"|'([^']*)'|([^\\s>]+))"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = classAttr.match(attrs);
    if (!m.hasMatch())
        return attrs + QStringLiteral(" class=\"%1\"").arg(cls);
    const QString value = m.captured(2) + m.captured(3) + m.captured(4);
    return attrs.left(m.capturedStart()) + m.captured(1) +
           QStringLiteral("\"%1 %2\"").arg(value, cls) + attrs.mid(m.capturedEnd());
}

QString withoutBorder(const QString& attrs)
{
    static const QRegularExpression border(
        QStringLiteral("\\s+border\\s*=\\s*(?:\"[^\"]*\"|'[^']*'|[^\\s>]+)"),
        QRegularExpression::CaseInsensitiveOption);
    QString out = attrs;
    return out.remove(border);
}

void closeCell(HtmlTable& table, qsizetype at)
{
    if (table.openCell >= 0)
        table.cells[table.openCell].contentEnd = at;
    table.openCell = -1;
}

// The edits that mark one table (see styleHtmlTables).
void markTable(const HtmlTable& table, const QString& html, QList<HtmlEdit>* edits)
{
    static const QRegularExpression border(QStringLiteral("\\bborder\\s*="),
                                           QRegularExpression::CaseInsensitiveOption);
    if (table.attrs.contains(border))
        edits->append({table.tagStart, table.tagEnd,
                       QStringLiteral("<%1%2>").arg(table.name, withoutBorder(table.attrs))});
    // The header: <thead>'s rows, else the leading rows of <th> only (when rows follow them).
    QList<bool> header(table.rows.size(), false);
    bool anyHead = false;
    for (int r = 0; r < table.rows.size(); ++r)
        anyHead |= header[r] = table.rows[r].inHead;
    if (!anyHead) {
        int r = 0;
        while (r < table.rows.size() && table.rows[r].allTh && !table.rows[r].cells.isEmpty())
            ++r;
        if (r < table.rows.size())
            for (int i = 0; i < r; ++i)
                header[i] = true;
    }
    // Which cells hold a number, and which columns hold only numbers in their body's data cells.
    QList<bool> number(table.cells.size(), false);
    QList<int> numbers, words;
    for (int i = 0; i < table.cells.size(); ++i) {
        const HtmlCell& cell = table.cells[i];
        const qsizetype end = cell.contentEnd >= 0 ? cell.contentEnd : html.size();
        const QString content = html.mid(cell.contentStart, end - cell.contentStart);
        number[i] = !cell.holdsTable && isNumber(content);
        const bool data = cell.name.compare(QLatin1String("td"), Qt::CaseInsensitive) == 0;
        if (header[cell.row] || !data || cell.span != 1 || isEmptyCell(content))
            continue;
        while (numbers.size() <= cell.column) {
            numbers << 0;
            words << 0;
        }
        ++(number[i] ? numbers : words)[cell.column];
    }
    const auto numericColumn = [&](int column) {
        return column < numbers.size() && numbers[column] > 0 && words[column] == 0;
    };
    int bodyRow = 0;
    for (int r = 0; r < table.rows.size(); ++r) {
        const HtmlRow& row = table.rows[r];
        if (header[r] || row.tagStart < 0)
            continue;
        if (bodyRow++ % 2 == 1)
            edits->append({row.tagStart, row.tagEnd,
                           QStringLiteral("<%1%2>").arg(row.name, withClass(row.attrs, kEven))});
    }
    for (int i = 0; i < table.cells.size(); ++i) {
        const HtmlCell& cell = table.cells[i];
        const bool head = header[cell.row];
        QString attrs = head ? withClass(cell.attrs, kHead) : cell.attrs;
        const bool right = head ? cell.span == 1 && numericColumn(cell.column) : number[i];
        // A <th> is centred by default; over a column of words it reads better on their side.
        const bool th = cell.name.compare(QLatin1String("th"), Qt::CaseInsensitive) == 0;
        if ((right || th) && !hasOwnAlignment(cell.attrs))
            attrs += right ? QStringLiteral(" align=\"right\"") : QStringLiteral(" align=\"left\"");
        if (attrs != cell.attrs)
            edits->append(
                {cell.tagStart, cell.tagEnd, QStringLiteral("<%1%2>").arg(cell.name, attrs)});
    }
}

} // namespace

QString htmlTableStyleSheet(const HtmlTableColours& colours)
{
    return QStringLiteral(
               "table { border-collapse: collapse; border-width: 0; margin-top: 4px;"
               " margin-bottom: 4px; }"
               "th, td { padding-left: 8px; padding-right: 8px; padding-top: 4px;"
               " padding-bottom: 4px; border-width: 0; }"
               "th { font-weight: bold; }"
               "th.lz-head, td.lz-head { border-bottom-style: solid; border-bottom-width: 1px;"
               " border-bottom-color: %1; }"
               "tr.lz-even td, tr.lz-even th { background-color: %2; }")
        .arg(colours.headRule, colours.stripe);
}

QString styleHtmlTables(const QString& html)
{
    if (!html.contains(QLatin1String("<t"), Qt::CaseInsensitive))
        return html;
    static const QRegularExpression tag(
        QStringLiteral("<(/?)(table|thead|tbody|tfoot|tr|td|th)\\b([^>]*)>"),
        QRegularExpression::CaseInsensitiveOption);
    QList<HtmlTable> open; // nested tables, the innermost last
    QList<HtmlEdit> edits;
    for (auto it = tag.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const bool closing = !m.captured(1).isEmpty();
        const QString name = m.captured(2);
        const QString kind = name.toLower();
        if (kind == u"table") {
            if (!closing) {
                if (!open.isEmpty() && open.last().openCell >= 0)
                    open.last().cells[open.last().openCell].holdsTable = true;
                HtmlTable table;
                table.tagStart = m.capturedStart();
                table.tagEnd = m.capturedEnd();
                table.name = name;
                table.attrs = m.captured(3);
                open.append(table);
            } else if (!open.isEmpty()) {
                closeCell(open.last(), m.capturedStart());
                markTable(open.last(), html, &edits);
                open.removeLast();
            }
            continue;
        }
        if (open.isEmpty())
            continue; // a stray row or cell outside any table
        HtmlTable& table = open.last();
        if (kind == u"thead") {
            table.inHead = !closing;
            continue;
        }
        if (kind == u"tbody" || kind == u"tfoot") {
            table.inHead = false;
            continue;
        }
        closeCell(table, m.capturedStart()); // a cell ends at the next row or cell, closed or not
        if (kind == u"tr") {
            if (!closing) {
                HtmlRow row;
                row.tagStart = m.capturedStart();
                row.tagEnd = m.capturedEnd();
                row.name = name;
                row.attrs = m.captured(3);
                row.inHead = table.inHead;
                table.rows.append(row);
                table.column = 0;
            }
            continue;
        }
        if (closing)
            continue;
        if (table.rows.isEmpty()) { // cells without a <tr>: a row of their own, left as it is
            HtmlRow row;
            row.tagStart = -1;
            row.inHead = table.inHead;
            table.rows.append(row);
        }
        HtmlCell cell;
        cell.tagStart = m.capturedStart();
        cell.tagEnd = m.capturedEnd();
        cell.contentStart = m.capturedEnd();
        cell.name = name;
        cell.attrs = m.captured(3);
        cell.row = int(table.rows.size()) - 1;
        cell.column = table.column;
        cell.span = spanOf(cell.attrs);
        table.column += cell.span;
        HtmlRow& row = table.rows.last();
        row.allTh = row.allTh && kind == u"th";
        row.cells.append(int(table.cells.size()));
        table.openCell = int(table.cells.size());
        table.cells.append(cell);
    }
    while (!open.isEmpty()) { // unclosed tables end with the text
        closeCell(open.last(), html.size());
        markTable(open.last(), html, &edits);
        open.removeLast();
    }
    if (edits.isEmpty())
        return html;
    std::sort(edits.begin(), edits.end(),
              [](const HtmlEdit& a, const HtmlEdit& b) { return a.start < b.start; });
    QString out;
    out.reserve(html.size() + html.size() / 8);
    qsizetype last = 0;
    for (const HtmlEdit& edit : edits) {
        out += QStringView(html).mid(last, edit.start - last);
        out += edit.text;
        last = edit.end;
    }
    out += QStringView(html).mid(last);
    return out;
}

} // namespace lizard::notebook
