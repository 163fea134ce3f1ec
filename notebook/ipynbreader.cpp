#include "notebook/ipynbreader.h"

#include "notebook/jsoncheck.h"
#include "notebook/outputreader.h"

#include <QFile>

namespace lizard::notebook {

namespace {

// "line L, column C" of the byte at offset (0-based).
QString position(const QByteArray& bytes, qsizetype offset)
{
    int line = 1;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < offset && i < bytes.size(); ++i) {
        if (bytes.at(i) == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return QStringLiteral("line %1, column %2").arg(line).arg(offset - lineStart + 1);
}

// The offset where arrays/objects nest deeper than maxDepth, or -1. Checked before parsing:
// the JSON library recurses when copying, comparing and writing values, and a hostile file
// nested a million levels deep would otherwise overflow the stack.
qsizetype tooDeepAt(const QByteArray& bytes, int maxDepth)
{
    int depth = 0;
    bool inString = false;
    for (qsizetype i = 0; i < bytes.size(); ++i) {
        const char c = bytes.at(i);
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return i;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return -1;
}

NotebookError jsonSyntaxError(const QByteArray& bytes, const QString& fileName,
                              const nlohmann::json::exception& e, std::size_t byte)
{
    if (bytes.trimmed().isEmpty())
        return {fileName, {}, QStringLiteral("the file is empty, not a notebook")};
    // byte is 1-based and points at the offending character.
    const qsizetype offset = std::min<qsizetype>(qsizetype(byte) - 1, bytes.size());
    QString detail = QString::fromUtf8(e.what());
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..."
    const qsizetype colon =
        detail.indexOf(QLatin1String(": "), detail.indexOf(QLatin1String("parse error")));
    if (colon >= 0)
        detail = detail.mid(colon + 2);
    const bool truncated = offset >= bytes.size();
    return {
        fileName, position(bytes, offset),
        QStringLiteral("not valid JSON%1 (%2)")
            .arg(truncated ? QStringLiteral("; the file ends too early (truncated?)") : QString(),
                 detail)};
}

bool readCell(JsonCheck& check, const nlohmann::json& v, const QString& where, CellData* cell)
{
    if (!check.isObject(v, where))
        return false;
    const nlohmann::json* type = check.member(v, "cell_type", where);
    QString typeName;
    if (!type || !check.string(*type, JsonCheck::child(where, "cell_type"), &typeName))
        return false;
    if (!cellTypeFromName(typeName, &cell->type))
        return check.fail(
            JsonCheck::child(where, "cell_type"),
            QStringLiteral("unknown cell type \"%1\" (expected code, markdown or raw)")
                .arg(typeName));
    if (const nlohmann::json* id = check.member(v, "id", where, false)) {
        if (!check.string(*id, JsonCheck::child(where, "id"), &cell->id))
            return false;
    }
    const nlohmann::json* source = check.member(v, "source", where);
    if (!source || !check.multiline(*source, JsonCheck::child(where, "source"), &cell->source))
        return false;
    if (const nlohmann::json* meta = check.member(v, "metadata", where, false)) {
        if (!check.isObject(*meta, JsonCheck::child(where, "metadata")))
            return false;
        cell->metadata = *meta;
    }
    if (cell->type != CellType::Code) {
        if (const nlohmann::json* att = check.member(v, "attachments", where, false)) {
            if (!check.isObject(*att, JsonCheck::child(where, "attachments")))
                return false;
            cell->attachments = *att;
        }
        return true;
    }
    if (const nlohmann::json* count = check.member(v, "execution_count", where, false)) {
        if (!check.optionalInt(*count, JsonCheck::child(where, "execution_count"),
                               &cell->executionCount))
            return false;
    }
    const nlohmann::json* outputs = check.member(v, "outputs", where, false);
    if (!outputs)
        return true;
    const QString outWhere = JsonCheck::child(where, "outputs");
    if (!check.isArray(*outputs, outWhere))
        return false;
    OutputReader reader(check);
    for (std::size_t i = 0; i < outputs->size(); ++i) {
        Output out;
        if (!reader.read((*outputs)[i], JsonCheck::item(outWhere, i), &out))
            return false;
        cell->outputs.push_back(std::move(out));
    }
    return true;
}

} // namespace

Expected<NotebookData> IpynbReader::parse(const QByteArray& bytes, const QString& fileName)
{
    const qsizetype deep = tooDeepAt(bytes, maxNesting);
    if (deep >= 0)
        return NotebookError{
            fileName, position(bytes, deep),
            QStringLiteral("JSON nested deeper than %1 levels; refused").arg(maxNesting)};
    nlohmann::json root;
    try {
        root = nlohmann::json::parse(bytes.constBegin(), bytes.constEnd());
    } catch (const nlohmann::json::parse_error& e) {
        return jsonSyntaxError(bytes, fileName, e, e.byte);
    } catch (const nlohmann::json::exception& e) {
        return jsonSyntaxError(bytes, fileName, e, 1);
    }
    JsonCheck check(fileName);
    if (!root.is_object())
        return NotebookError{fileName,
                             {},
                             QStringLiteral("expected a notebook (a JSON object), found %1")
                                 .arg(JsonCheck::describe(root))};
    std::optional<int> major;
    const nlohmann::json* nbformat = check.member(root, "nbformat", {});
    if (!nbformat || !check.optionalInt(*nbformat, QStringLiteral("nbformat"), &major))
        return check.error();
    if (major != 4)
        return NotebookError{fileName, QStringLiteral("nbformat"),
                             QStringLiteral("nbformat %1 is not supported; only nbformat 4 is "
                                            "(convert it with: jupyter nbconvert --to notebook "
                                            "--nbformat 4)")
                                 .arg(major ? QString::number(*major) : QStringLiteral("null"))};
    NotebookData data;
    if (const nlohmann::json* meta = check.member(root, "metadata", {}, false)) {
        if (!check.isObject(*meta, QStringLiteral("metadata")))
            return check.error();
        data.metadata = *meta;
    }
    const nlohmann::json* cells = check.member(root, "cells", {});
    if (!cells || !check.isArray(*cells, QStringLiteral("cells")))
        return check.error();
    data.cells.reserve(cells->size());
    for (std::size_t i = 0; i < cells->size(); ++i) {
        CellData cell;
        if (!readCell(check, (*cells)[i], JsonCheck::item(QStringLiteral("cells"), i), &cell))
            return check.error();
        data.cells.push_back(std::move(cell));
    }
    return data;
}

Expected<NotebookData> IpynbReader::readFile(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return NotebookError{path, {}, QStringLiteral("cannot open: %1").arg(file.errorString())};
    if (file.size() > maxFileSize)
        return NotebookError{path,
                             {},
                             QStringLiteral("the file is %1 MiB; notebooks over %2 MiB are refused")
                                 .arg(file.size() >> 20)
                                 .arg(maxFileSize >> 20)};
    const QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return NotebookError{path, {}, QStringLiteral("cannot read: %1").arg(file.errorString())};
    return parse(bytes, path);
}

} // namespace lizard::notebook
