#include "client/coderun/runcodetypes.h"

#include "client/jsonreader.h"

namespace lizard::client {

QString Execution::text() const
{
    for (const ExecutionResult& r : results)
        if (!r.isDisplay)
            return r.bundle.value(QStringLiteral("text/plain"));
    return {};
}

QList<ExecutionResult> Execution::resultsWith(const QString& mime) const
{
    QList<ExecutionResult> out;
    for (const ExecutionResult& r : results)
        if (r.bundle.contains(mime))
            out.append(r);
    return out;
}

QVariant tableValue(const nlohmann::json& v)
{
    using nlohmann::json;
    switch (v.type()) {
    case json::value_t::null:
        return {};
    case json::value_t::boolean:
        return v.get<bool>();
    case json::value_t::number_integer:
        return v.get<qint64>();
    case json::value_t::number_unsigned:
        return v.get<quint64>();
    case json::value_t::number_float:
        return v.get<double>();
    case json::value_t::string:
        return QString::fromStdString(v.get<std::string>());
    default:
        return QString::fromStdString(v.dump(-1, ' ', false, json::error_handler_t::replace));
    }
}

std::optional<TableRows> tableRowsFromJson(const nlohmann::json& v, QString* error)
{
    const auto fail = [error](const char* what) {
        if (error)
            *error = QString::fromUtf8(what);
        return std::nullopt;
    };
    if (!v.is_object())
        return fail("the rows are not a JSON object");
    const auto index = v.find("index_values");
    const auto data = v.find("data");
    if (index == v.end() || !index->is_array())
        return fail("\"index_values\" must be a list");
    if (data == v.end() || !data->is_array())
        return fail("\"data\" must be a list of columns");
    TableRows rows;
    rows.index.reserve(qsizetype(index->size()));
    for (const auto& x : *index)
        rows.index.append(tableValue(x));
    for (const auto& column : *data) {
        QVariantList values; // a column that is no list has no values: the reader says so
        if (!column.is_array()) {
            rows.columns.append(values);
            continue;
        }
        values.reserve(qsizetype(column.size()));
        for (const auto& x : column)
            values.append(tableValue(x));
        rows.columns.append(values);
    }
    const auto start = v.find("start");
    if (start != v.end() && !(start->is_number_integer() && start->get<qint64>() >= 0))
        return fail("\"start\" must be a row number");
    rows.start = start == v.end() ? 0 : start->get<qint64>();
    if (const auto total = v.find("rows"); total != v.end() && total->is_number_integer())
        rows.totalRows = total->get<qint64>();
    rows.handle = stringField(v, "handle");
    return rows;
}

QString kernelStateName(KernelState state)
{
    switch (state) {
    case KernelState::Unknown:
        return QStringLiteral("unknown");
    case KernelState::Starting:
        return QStringLiteral("starting");
    case KernelState::Idle:
        return QStringLiteral("idle");
    case KernelState::Busy:
        return QStringLiteral("busy");
    case KernelState::Dead:
        return QStringLiteral("dead");
    }
    return {};
}

} // namespace lizard::client
