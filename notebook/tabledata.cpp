#include "notebook/tabledata.h"

#include <QLocale>
#include <QVariant>
#include <cmath>

namespace lizard::notebook {

namespace {

using nlohmann::json;

QString str(const json& v)
{
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString();
}

bool fail(QString* error, const QString& what)
{
    if (error)
        *error = QStringLiteral("malformed table: ") + what;
    return false;
}

bool parseColumn(const json& v, TableColumn* out)
{
    if (!v.is_object())
        return false;
    const auto name = v.find("name");
    out->name = name == v.end() || name->is_null() ? QString() : tableCellText(*name);
    out->dtype = str(v.value("dtype", json()));
    out->kind = str(v.value("kind", json()));
    return true;
}

// A page's rows checked against the table's columns and turned into display text.
bool pageFromRows(const client::TableRows& rows, const TableInfo& info, TablePage* page,
                  QString* error)
{
    const int columnCount = int(info.columns.size());
    if (int(rows.columns.size()) != columnCount)
        return fail(error, QStringLiteral("\"data\" has %1 columns, the table %2")
                               .arg(rows.columns.size())
                               .arg(columnCount));
    const qsizetype count = rows.index.size();
    page->index.reserve(count);
    for (const QVariant& x : rows.index)
        page->index.append(tableCellText(x, info.index.kind));
    for (int c = 0; c < columnCount; ++c) {
        const QVariantList& column = rows.columns.at(c);
        if (column.size() != count)
            return fail(
                error,
                QStringLiteral("column %1 of \"data\" does not have %2 values").arg(c).arg(count));
        QStringList values;
        values.reserve(count);
        for (const QVariant& x : column)
            values.append(tableCellText(x, info.columns[c].kind));
        page->columns.append(values);
    }
    page->start = rows.start;
    page->totalRows = rows.totalRows.value_or(-1);
    return true;
}

// index_values and data of the output's first rows.
bool parseRows(const json& v, const TableInfo& info, TablePage* page, QString* error)
{
    QString why;
    const std::optional<client::TableRows> rows = client::tableRowsFromJson(v, &why);
    if (!rows)
        return fail(error, why);
    return pageFromRows(*rows, info, page, error);
}

} // namespace

bool TableColumn::isNumeric() const
{
    return kind == u"i" || kind == u"u" || kind == u"f" || kind == u"c";
}

QString tableCellText(const QVariant& v, const QString& kind)
{
    const int type = v.typeId();
    const bool integer = type == QMetaType::LongLong || type == QMetaType::ULongLong ||
                         type == QMetaType::Int || type == QMetaType::UInt;
    if (kind == u"f" && integer)
        return tableCellText(QVariant(v.toDouble()));
    switch (type) {
    case QMetaType::UnknownType:
        return QStringLiteral("None");
    case QMetaType::Bool:
        return v.toBool() ? QStringLiteral("True") : QStringLiteral("False");
    case QMetaType::Double: {
        const double d = v.toDouble();
        QString s = QString::number(d, 'g', 12);
        if (std::isfinite(d) && !s.contains(u'.') && !s.contains(u'e'))
            s += QStringLiteral(".0"); // as Python shows a float
        return s;
    }
    default: // whole numbers and text
        return v.toString();
    }
}

QString tableCellText(const json& v, const QString& kind)
{
    return tableCellText(client::tableValue(v), kind);
}

QString tableShapeText(qint64 rows, qint64 columns)
{
    const QLocale c(QLocale::English);
    return QStringLiteral("%1 %2 × %3 %4")
        .arg(c.toString(rows), rows == 1 ? QStringLiteral("row") : QStringLiteral("rows"),
             c.toString(columns),
             columns == 1 ? QStringLiteral("column") : QStringLiteral("columns"));
}

std::optional<TableInfo> parseTable(const json& value, QString* error)
{
    if (!value.is_object()) {
        fail(error, QStringLiteral("not a JSON object"));
        return std::nullopt;
    }
    if (value.value("version", json()) != json(1)) {
        fail(error, QStringLiteral("unknown version (this app reads version 1)"));
        return std::nullopt;
    }
    TableInfo t;
    t.handle = str(value.value("handle", json()));
    t.context = str(value.value("context", json()));
    t.series = value.value("series", json(false)).is_boolean() && value.value("series", false);
    const json shape = value.value("shape", json());
    if (!shape.is_array() || shape.size() != 2 || !shape[0].is_number_integer() ||
        !shape[1].is_number_integer() || shape[0].get<qint64>() < 0 || shape[1].get<qint64>() < 0) {
        fail(error, QStringLiteral("\"shape\" must be [rows, columns]"));
        return std::nullopt;
    }
    t.rows = shape[0].get<qint64>();
    const json columns = value.value("columns", json());
    if (!columns.is_array() || qint64(columns.size()) != shape[1].get<qint64>()) {
        fail(error, QStringLiteral("\"columns\" must list the %1 columns of \"shape\"")
                        .arg(shape[1].get<qint64>()));
        return std::nullopt;
    }
    for (std::size_t i = 0; i < columns.size(); ++i) {
        TableColumn c;
        if (!parseColumn(columns[i], &c)) {
            fail(error, QStringLiteral("column %1 is not an object").arg(i));
            return std::nullopt;
        }
        t.columns.append(c);
    }
    if (const json index = value.value("index", json()); index.is_object())
        parseColumn(index, &t.index);
    if (!parseRows(value, t, &t.first, error))
        return std::nullopt;
    t.first.totalRows = t.rows;
    if (t.first.start != 0 || t.first.rowCount() > t.rows) {
        fail(error, QStringLiteral("the first rows do not fit the shape"));
        return std::nullopt;
    }
    if (t.handle.isEmpty() && t.first.rowCount() < t.rows) {
        fail(error, QStringLiteral("no \"handle\" to ask for the other rows"));
        return std::nullopt;
    }
    return t;
}

std::optional<TablePage> parseTablePage(const client::TableRows& rows, const TableInfo& info,
                                        QString* error)
{
    TablePage page;
    if (!pageFromRows(rows, info, &page, error))
        return std::nullopt;
    return page;
}

} // namespace lizard::notebook
