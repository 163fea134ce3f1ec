#include "notebook/htmltables.h"

#include <QRegularExpression>

namespace lizard::notebook {

QString htmlTableStyleSheet()
{
    return QStringLiteral(
        "table { border-collapse: collapse; border-style: solid; border-width: 1px;"
        " border-color: #c9ccd1; margin-top: 2px; margin-bottom: 2px; }"
        "th, td { padding-left: 8px; padding-right: 8px; padding-top: 3px; padding-bottom: 3px;"
        " border-style: solid; border-width: 1px; border-color: #dadde1; }"
        "th { background-color: #f1f3f5; font-weight: bold; }"
        "thead th { background-color: #e9ecef; }");
}

QString alignNumericCells(const QString& html)
{
    if (!html.contains(QLatin1String("<td"), Qt::CaseInsensitive) &&
        !html.contains(QLatin1String("<th"), Qt::CaseInsensitive))
        return html;
    // A cell whose whole text is a number; its tag has no align of its own.
    static const QRegularExpression cell(
        QStringLiteral("<(td|th)((?:\\s+(?!align\\b)[\\w:-]+(?:\\s*=\\s*(?:\"[^\"]*\"|'[^']*'|[^"
                       "\\s>]+))?)*)\\s*>"
                       "(\\s*[-+]?(?:\\d[\\d,]*(?:\\.\\d*)?|\\.\\d+)(?:[eE][-+]?\\d+)?%?\\s*|\\s*-?"
                       "(?:NaN|inf)\\s*)"
                       "</\\1>"),
        QRegularExpression::CaseInsensitiveOption);
    QString out;
    out.reserve(html.size() + html.size() / 8);
    qsizetype last = 0;
    for (auto it = cell.globalMatch(html); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(html).mid(last, m.capturedStart() - last);
        out += QStringLiteral("<%1%2 align=\"right\">%3</%1>")
                   .arg(m.captured(1), m.captured(2), m.captured(3));
        last = m.capturedEnd();
    }
    out += QStringView(html).mid(last);
    return out;
}

} // namespace lizard::notebook
