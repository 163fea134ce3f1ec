#include "notebook/ipynbwriter.h"

#include "notebook/streamtext.h"
#include "notebook/tabledata.h"

#include <QBuffer>
#include <QSaveFile>
#include <QUuid>

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
        // A DataFrame's table form only makes sense beside the kernel that holds the frame (its
        // handle pages through it there) and repeats the first rows its HTML already has: the
        // file keeps the HTML and text forms, which JupyterLab and this app show.
        if (it.key() == kTableMime)
            continue;
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

// Spilled streams are not read into the JSON tree: their "text" holds a marker that write()
// replaces by the lines, streamed from the file. The marker has a fresh random part per write,
// so no text in the notebook can look like it.
struct Spills
{
    std::string prefix; // empty: put the whole text in the tree (toJson)
    std::vector<StreamText> texts;
};

nlohmann::json streamText(const StreamOutput& s, Spills* spills)
{
    if (!s.spilled)
        return lines(s.text);
    if (spills->prefix.empty()) {
        QString error;
        const QString whole = StreamText(s).readAll(&error);
        return lines(error.isEmpty() ? whole : s.text);
    }
    spills->texts.emplace_back(s);
    return spills->prefix + std::to_string(spills->texts.size() - 1);
}

nlohmann::json outputJson(const Output& output, Spills* spills)
{
    nlohmann::json o;
    o["output_type"] = outputTypeName(output).toStdString();
    if (const auto* s = std::get_if<StreamOutput>(&output)) {
        o["name"] = s->name.toStdString();
        o["text"] = streamText(*s, spills);
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

nlohmann::json cellJson(const CellData& cell, Spills* spills)
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
            outputs.push_back(outputJson(o, spills));
        c["outputs"] = outputs;
    } else if (cell.attachments.is_object()) {
        c["attachments"] = cell.attachments;
    }
    return c;
}

nlohmann::json notebookJson(const NotebookData& data, Spills* spills)
{
    nlohmann::json root;
    root["nbformat"] = IpynbWriter::nbformatMajor;
    root["nbformat_minor"] = IpynbWriter::nbformatMinor;
    root["metadata"] = data.metadata.is_object() ? data.metadata : nlohmann::json::object();
    nlohmann::json cells = nlohmann::json::array();
    for (const CellData& cell : data.cells)
        cells.push_back(cellJson(cell, spills));
    root["cells"] = cells;
    return root;
}

// JSON string escaping as nlohmann's dump does it (UTF-8 passes through).
void appendJsonString(QByteArray& out, QByteArrayView s)
{
    static const char hex[] = "0123456789abcdef";
    out += '"';
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

// Where a piece of text may end without cutting a UTF-8 character: before a lead byte.
qsizetype utf8Boundary(QByteArrayView s, qsizetype at)
{
    while (at > 0 && at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80)
        --at;
    return at;
}

// The lines of a spilled text as a JSON array, indented like the rest of the file, read from
// disk a megabyte at a time. A line longer than maxLine is written as several strings (readers
// join them), so memory stays bounded even for output with no newline at all.
QString writeSpilledLines(QIODevice* out, const StreamText& text, int indent)
{
    constexpr qsizetype maxLine = 4 << 20;
    const QByteArray itemIndent = QByteArray(indent + 1, ' ');
    QByteArray pending; // the unfinished line
    QByteArray chunk;
    bool first = true;
    QString error;
    const auto emitItem = [&](QByteArrayView line) {
        chunk += first ? "[\n" : ",\n";
        first = false;
        chunk += itemIndent;
        appendJsonString(chunk, line);
    };
    const auto flush = [&] {
        const bool ok = out->write(chunk) == chunk.size();
        chunk.clear();
        return ok;
    };
    for (qint64 at = 0; at < text.size(); at += StreamText::chunkBytes) {
        pending += text.read(at, StreamText::chunkBytes, &error);
        if (!error.isEmpty())
            return error;
        qsizetype start = 0;
        for (qsizetype nl; (nl = pending.indexOf('\n', start)) >= 0; start = nl + 1)
            emitItem(QByteArrayView(pending).sliced(start, nl + 1 - start));
        while (pending.size() - start > maxLine) {
            const qsizetype end = utf8Boundary(pending, start + maxLine);
            emitItem(QByteArrayView(pending).sliced(start, end - start));
            start = end;
        }
        pending.remove(0, start);
        if (!flush())
            return out->errorString();
    }
    if (!pending.isEmpty())
        emitItem(pending);
    chunk += first ? QByteArray("[]") : "\n" + QByteArray(indent, ' ') + ']';
    return flush() ? QString() : out->errorString();
}

} // namespace

nlohmann::json IpynbWriter::toJson(const NotebookData& data)
{
    Spills inline_;
    return notebookJson(data, &inline_);
}

namespace {

// Jupyter writes indent=1 with sorted keys (nlohmann's objects are sorted). Invalid UTF-8
// cannot come from QString; replace rather than throw regardless. depth: the value's nesting
// in the file, so that it can be dumped on its own and still line up.
std::string dumpAt(const nlohmann::json& value, int depth)
{
    const std::string text = value.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string out;
    out.reserve(text.size() + text.size() / 16);
    for (const char c : text) {
        out += c;
        if (c == '\n') // outside strings only: dump escapes the ones inside
            out.append(std::size_t(depth), ' ');
    }
    return out;
}

// Writes text, putting each spilled stream's lines where its marker is.
QString writeWithSpills(QIODevice* out, const std::string& text, const Spills& spills)
{
    std::size_t from = 0;
    for (std::size_t i = 0; i < spills.texts.size(); ++i) {
        const std::string marker = '"' + spills.prefix + std::to_string(i) + '"';
        const std::size_t at = text.find(marker, from);
        if (at == std::string::npos)
            return QStringLiteral("internal error: a long output was not placed in the file");
        const std::size_t lineStart = text.rfind('\n', at) + 1;
        const int indent = int(text.find_first_not_of(' ', lineStart) - lineStart);
        if (out->write(text.data() + from, qint64(at - from)) != qint64(at - from))
            return out->errorString();
        if (QString error = writeSpilledLines(out, spills.texts[i], indent); !error.isEmpty())
            return error;
        from = at + marker.size();
    }
    const qint64 rest = qint64(text.size() - from);
    return out->write(text.data() + from, rest) == rest ? QString() : out->errorString();
}

} // namespace

QString IpynbWriter::write(QIODevice* out, const NotebookData& data)
{
    // A cell at a time, laid out as one dump of the whole tree would be. One string of the
    // whole notebook is what made autosave stall the UI thread even from a worker: mapping and
    // unmapping hundreds of MB takes the process's memory-map lock, which the UI thread then
    // waits for at its next page fault.
    Spills spills;
    spills.prefix = "lizard-spilled-stream:" +
                    QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString() + ':';
    const auto put = [out](const std::string& s) {
        return out->write(s.data(), qint64(s.size())) == qint64(s.size());
    };
    if (!put("{\n \"cells\": ["))
        return out->errorString();
    for (std::size_t i = 0; i < data.cells.size(); ++i) {
        spills.texts.clear();
        const std::string cell = dumpAt(cellJson(data.cells[i], &spills), 2);
        if (!put(i == 0 ? "\n  " : ",\n  "))
            return out->errorString();
        if (QString error = writeWithSpills(out, cell, spills); !error.isEmpty())
            return error;
    }
    const nlohmann::json metadata =
        data.metadata.is_object() ? data.metadata : nlohmann::json::object();
    const std::string tail = std::string(data.cells.empty() ? "]" : "\n ]") +
                             ",\n \"metadata\": " + dumpAt(metadata, 1) +
                             ",\n \"nbformat\": " + std::to_string(nbformatMajor) +
                             ",\n \"nbformat_minor\": " + std::to_string(nbformatMinor) + "\n}\n";
    return put(tail) ? QString() : out->errorString();
}

QByteArray IpynbWriter::serialize(const NotebookData& data)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    write(&buffer, data);
    return buffer.data();
}

MaybeError IpynbWriter::writeFile(const QString& path, const NotebookData& data)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return NotebookError{path, {}, QStringLiteral("cannot write: %1").arg(file.errorString())};
    if (const QString error = write(&file, data); !error.isEmpty()) {
        file.cancelWriting();
        return NotebookError{path, {}, QStringLiteral("cannot write: %1").arg(error)};
    }
    if (!file.commit())
        return NotebookError{path, {}, QStringLiteral("cannot write: %1").arg(file.errorString())};
    return std::nullopt;
}

} // namespace lizard::notebook
