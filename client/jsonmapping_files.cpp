// JSON of the file calls: entries, and the bodies of write, path and move.
#include "client/jsonhelpers.h"
#include "client/jsonmapping.h"

namespace lizard::client {

using namespace jsonhelpers;

namespace {

FileEntry fileEntry(const Json& j)
{
    const JsonReader r(j, QStringLiteral("file entry"));
    FileEntry f;
    f.name = r.string("name");
    f.path = r.requiredString("path");
    if (f.name.isEmpty())
        f.name = f.path.section(QLatin1Char('/'), -1);
    f.type = r.string("type", QStringLiteral("file"));
    f.size = r.integer("size");
    if (const Json* mode = r.find("mode")) {
        // The SDK documents a number (0o644 = 420); accept the "0644" text form too.
        if (mode->is_number_integer())
            f.mode = QStringLiteral("%1").arg(mode->get<qint64>() & 07777, 4, 8, QLatin1Char('0'));
        else if (mode->is_string())
            f.mode = QString::fromStdString(mode->get<std::string>());
        else
            r.fail("mode", "a number");
    }
    f.permissions = r.string("permissions");
    f.owner = r.string("owner");
    f.group = r.string("group");
    f.modifiedAt = r.has("modifiedAt") ? r.time("modifiedAt") : r.time("modTime");
    f.symlinkTarget = r.string("symlinkTarget");
    return f;
}

} // namespace

Outcome<FileEntry> parseFileEntry(const QByteArray& body, const QString& what)
{
    return parseWith<FileEntry>(body, what, fileEntry);
}

Outcome<QList<FileEntry>> parseFileEntries(const QByteArray& body, const QString& what)
{
    return parseWith<QList<FileEntry>>(
        body, what, [](const Json& j) { return listOf<FileEntry>(j, "file list", fileEntry); });
}

QByteArray writeFileBody(const QString& path, const QByteArray& content)
{
    Json j{{"path", utf8(path)}};
    // Text only when it is strict UTF-8 (no overlong forms, surrogates or values past U+10FFFF),
    // which Qt's check is: anything else travels as base64 and arrives byte for byte.
    if (!content.contains('\0') && QByteArrayView(content).isValidUtf8()) {
        j["content"] = content.toStdString();
    } else {
        j["content"] = content.toBase64().toStdString();
        j["encoding"] = "base64";
    }
    return dump(j);
}

QByteArray pathBody(const QString& path)
{
    return dump(Json{{"path", utf8(path)}});
}

QByteArray moveBody(const QString& from, const QString& to)
{
    return dump(Json{{"from", utf8(from)}, {"to", utf8(to)}});
}

} // namespace lizard::client
