#include "notebook/ipynbwriter.h"

#include <QSaveFile>

namespace lizard::notebook {

namespace {

// Jupyter's split_lines: "a\nb" -> ["a\n", "b"].
nlohmann::json lines(const QString& text)
{
    nlohmann::json out = nlohmann::json::array();
    const std::string s = text.toStdString();
    std::size_t start = 0;
    while (start < s.size()) {
        std::size_t nl = s.find('\n', start);
        std::size_t end = nl == std::string::npos ? s.size() : nl + 1;
        out.push_back(s.substr(start, end - start));
        start = end;
    }
    return out;
}

bool splitsIntoLines(const std::string& mime)
{
    return mime.rfind("text/", 0) == 0 || mime == "application/javascript" ||
           mime == "image/svg+xml";
}

nlohmann::json bundle(const nlohmann::json& data)
{
    nlohmann::json out = nlohmann::json::object();
    for (auto it = data.begin(); it != data.end(); ++it) {
        if (it->is_string() && splitsIntoLines(it.key()))
            out[it.key()] = lines(QString::fromStdString(it->get<std::string>()));
        else
            out[it.key()] = it.value();
    }
    return out;
}

nlohmann::json optionalInt(const std::optional<int>& v)
{
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json outputJson(const Output& output)
{
    nlohmann::json o;
    o["output_type"] = outputTypeName(output).toStdString();
    if (const auto* s = std::get_if<StreamOutput>(&output)) {
        o["name"] = s->name.toStdString();
        o["text"] = lines(s->text);
    } else if (const auto* r = std::get_if<RichOutput>(&output)) {
        o["data"] = bundle(r->data);
        o["metadata"] = r->metadata.is_object() ? r->metadata : nlohmann::json::object();
        if (r->kind == RichOutput::Kind::ExecuteResult)
            o["execution_count"] = optionalInt(r->executionCount);
    } else if (const auto* e = std::get_if<ErrorOutput>(&output)) {
        o["ename"] = e->ename.toStdString();
        o["evalue"] = e->evalue.toStdString();
        nlohmann::json tb = nlohmann::json::array();
        for (const QString& line : e->traceback)
            tb.push_back(line.toStdString());
        o["traceback"] = tb;
    }
    return o;
}

nlohmann::json cellJson(const CellData& cell)
{
    nlohmann::json c;
    c["cell_type"] = cellTypeName(cell.type).toStdString();
    c["id"] = (isValidCellId(cell.id) ? cell.id : newCellId()).toStdString();
    c["metadata"] = cell.metadata.is_object() ? cell.metadata : nlohmann::json::object();
    c["source"] = lines(cell.source);
    if (cell.type == CellType::Code) {
        c["execution_count"] = optionalInt(cell.executionCount);
        nlohmann::json outputs = nlohmann::json::array();
        for (const Output& o : cell.outputs)
            outputs.push_back(outputJson(o));
        c["outputs"] = outputs;
    } else if (cell.attachments.is_object()) {
        c["attachments"] = cell.attachments;
    }
    return c;
}

} // namespace

nlohmann::json IpynbWriter::toJson(const NotebookData& data)
{
    nlohmann::json root;
    root["nbformat"] = nbformatMajor;
    root["nbformat_minor"] = nbformatMinor;
    root["metadata"] = data.metadata.is_object() ? data.metadata : nlohmann::json::object();
    nlohmann::json cells = nlohmann::json::array();
    for (const CellData& cell : data.cells)
        cells.push_back(cellJson(cell));
    root["cells"] = cells;
    return root;
}

QByteArray IpynbWriter::serialize(const NotebookData& data)
{
    // Jupyter writes indent=1 with sorted keys (nlohmann's objects are sorted) and a final
    // newline. Invalid UTF-8 cannot come from QString; replace rather than throw regardless.
    const std::string text =
        toJson(data).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
    return QByteArray::fromStdString(text) + '\n';
}

MaybeError IpynbWriter::writeFile(const QString& path, const NotebookData& data)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return NotebookError{path, {}, QStringLiteral("cannot write: %1").arg(file.errorString())};
    const QByteArray bytes = serialize(data);
    if (file.write(bytes) != bytes.size() || !file.commit())
        return NotebookError{path, {}, QStringLiteral("cannot write: %1").arg(file.errorString())};
    return std::nullopt;
}

} // namespace lizard::notebook
