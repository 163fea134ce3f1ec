#pragma once
// A pandas DataFrame or Series as data: the runner's application/vnd.lizard.table+json output
// (shape, columns with dtypes, the first rows, a handle to page through the rest; see
// resources/runner/PROTOCOL.md, "Tables") and its table_rows pages, parsed into display text.
// Malformed input gives a clear error naming what is wrong, never a crash.

#include "client/coderun/runcodetypes.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>
#include <optional>

namespace lizard::notebook {

inline constexpr char kTableMime[] = "application/vnd.lizard.table+json";

struct TableColumn
{
    QString name;
    QString dtype; // numpy's name: int64, float64, object, datetime64[ns], ...
    QString kind;  // numpy's dtype kind: i, u, f, c, b, M, m, O, ...
    bool isNumeric() const;
};

// Rows [start, start + rowCount()) of the frame, as display text.
struct TablePage
{
    qint64 start = 0;
    qint64 totalRows = -1;      // the frame's rows when the page was cut (-1: not said)
    QStringList index;          // one per row
    QList<QStringList> columns; // one list per column, each one per row
    int rowCount() const { return int(index.size()); }
};

struct TableInfo
{
    QString handle;
    QString context; // the code context whose kernel holds the frame
    bool series = false;
    qint64 rows = 0;
    QList<TableColumn> columns;
    TableColumn index;
    TablePage first; // the rows that came with the output
};

// The table output; nullopt with *error set when it is malformed.
std::optional<TableInfo> parseTable(const nlohmann::json& value, QString* error);
// A table_rows answer for the frame of `info`.
std::optional<TablePage> parseTablePage(const client::TableRows& rows, const TableInfo& info,
                                        QString* error);
// One value as the view shows it (numbers as pandas would, null as "None"). `kind` is its
// column's: a float column's 2 shows as 2.0 (JSON on the way may have dropped the ".0").
QString tableCellText(const QVariant& value, const QString& kind = {});
QString tableCellText(const nlohmann::json& value, const QString& kind = {});
// "1,000,000 rows × 5 columns" (or "1 row × 1 column").
QString tableShapeText(qint64 rows, qint64 columns);

} // namespace lizard::notebook
