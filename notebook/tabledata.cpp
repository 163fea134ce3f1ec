#include "notebook/tabledata.h"

#include <QLocale>
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

// index_values and data of a page or of the output's first rows.
bool parseRows(const json& v, const TableInfo& info, TablePage* page, QString* error)
{
    const int columnCount = int(info.columns.size());
    const auto index = v.find("index_values");
    const auto data = v.find("data");
    if (index == v.end() || !index->is_array())
        return fail(error, QStringLiteral("\"index_values\" must be a list"));
    if (data == v.end() || !data->is_array())
        return fail(error, QStringLiteral("\"data\" must be a list of columns"));
    if (int(data->size()) != columnCount)
        return fail(error, QStringLiteral("\"data\" has %1 columns, the table %2")
                               .arg(data->size())
                               .arg(columnCount));
    const std::size_t rows = index->size();
    page->index.reserve(qsizetype(rows));
    for (const json& x : *index)
        page->index.append(tableCellText(x, info.index.kind));
    for (std::size_t c = 0; c < data->size(); ++c) {
        const json& col = (*data)[c];
        if (!col.is_array() || col.size() != rows)
            return fail(
                error,
                QStringLiteral("column %1 of \"data\" does not have %2 values").arg(c).arg(rows));
        QStringList values;
        values.reserve(qsizetype(rows));
        for (const json& x : col)
            values.append(tableCellText(x, info.columns[int(c)].kind));
        page->columns.append(values);
    }
    const auto start = v.find("start");
    if (start != v.end() && !(start->is_number_integer() && start->get<qint64>() >= 0))
        return fail(error, QStringLiteral("\"start\" must be a row number"));
    page->start = start == v.end() ? 0 : start->get<qint64>();
    return true;
}

} // namespace

bool TableColumn::isNumeric() const
{
    return kind == u"i" || kind == u"u" || kind == u"f" || kind == u"c";
}

QString tableCellText(const json& v, const QString& kind)
{
    if (kind == u"f" && (v.is_number_integer() || v.is_number_unsigned()))
        return tableCellText(json(v.get<double>()));
    switch (v.type()) {
    case json::value_t::null:
        return QStringLiteral("None");
    case json::value_t::boolean:
        return v.get<bool>() ? QStringLiteral("True") : QStringLiteral("False");
    case json::value_t::number_integer:
        return QString::number(v.get<qint64>());
    case json::value_t::number_unsigned:
        return QString::number(v.get<quint64>());
    case json::value_t::number_float: {
        const double d = v.get<double>();
        QString s = QString::number(d, 'g', 12);
        if (std::isfinite(d) && !s.contains(u'.') && !s.contains(u'e'))
            s += QStringLiteral(".0"); // as Python shows a float
        return s;
    }
    case json::value_t::string:
        return QString::fromStdString(v.get<std::string>());
    default:
        return QString::fromStdString(v.dump(-1, ' ', false, json::error_handler_t::replace));
    }
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

std::optional<TablePage> parseTablePage(const json& value, const TableInfo& info, QString* error)
{
    if (!value.is_object()) {
        fail(error, QStringLiteral("the rows are not a JSON object"));
        return std::nullopt;
    }
    TablePage page;
    if (!parseRows(value, info, &page, error))
        return std::nullopt;
    if (const auto rows = value.find("rows"); rows != value.end() && rows->is_number_integer())
        page.totalRows = rows->get<qint64>();
    return page;
}

} // namespace lizard::notebook
