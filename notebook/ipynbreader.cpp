#include "notebook/ipynbreader.h"

#include "notebook/jsoncheck.h"
#include "notebook/outputreader.h"

#include <QFile>

namespace lizard::notebook {

namespace {

NotebookError jsonSyntaxError(const QByteArray& bytes, const QString& fileName,
                              const nlohmann::json::parse_error& e)
{
    if (bytes.trimmed().isEmpty())
        return {fileName, {}, QStringLiteral("the file is empty, not a notebook")};
    // e.byte is 1-based and points just past the offending character.
    const qsizetype end = std::min<qsizetype>(qsizetype(e.byte) - 1, bytes.size());
    int line = 1;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < end; ++i) {
        if (bytes.at(i) == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    QString detail = QString::fromUtf8(e.what());
    // "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..."
    const qsizetype colon = detail.indexOf(QLatin1String(": "), detail.indexOf(QLatin1String("parse error")));
    if (colon >= 0)
        detail = detail.mid(colon + 2);
    const bool truncated = end >= bytes.size();
    return {fileName,
            QStringLiteral("line %1, column %2").arg(line).arg(end - lineStart + 1),
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
        return check.fail(JsonCheck::child(where, "cell_type"),
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
    nlohmann::json root;
    try {
        root = nlohmann::json::parse(bytes.constBegin(), bytes.constEnd());
    } catch (const nlohmann::json::parse_error& e) {
        return jsonSyntaxError(bytes, fileName, e);
    }
    JsonCheck check(fileName);
    if (!root.is_object())
        return NotebookError{fileName, {},
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
        return NotebookError{path, {},
                             QStringLiteral("the file is %1 MiB; notebooks over %2 MiB are refused")
                                 .arg(file.size() >> 20)
                                 .arg(maxFileSize >> 20)};
    const QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return NotebookError{path, {}, QStringLiteral("cannot read: %1").arg(file.errorString())};
    return parse(bytes, path);
}

} // namespace lizard::notebook
