#include "notebook/output.h"

#include "notebook/streamtext.h"

namespace lizard::notebook {

QStringList RichOutput::mimeTypes() const
{
    QStringList out;
    for (auto it = data.begin(); it != data.end(); ++it)
        out << QString::fromStdString(it.key());
    return out;
}

bool RichOutput::has(const QString& mime) const
{
    return data.contains(mime.toStdString());
}

QString RichOutput::text(const QString& mime) const
{
    auto it = data.find(mime.toStdString());
    if (it == data.end())
        return {};
    if (it->is_string())
        return QString::fromStdString(it->get<std::string>());
    return QString::fromStdString(it->dump());
}

QString outputTypeName(const Output& output)
{
    if (std::holds_alternative<StreamOutput>(output))
        return QStringLiteral("stream");
    if (const auto* rich = std::get_if<RichOutput>(&output))
        return rich->kind == RichOutput::Kind::ExecuteResult ? QStringLiteral("execute_result")
                                                             : QStringLiteral("display_data");
    return QStringLiteral("error");
}

bool canMergeStream(const Output& last, const Output& next)
{
    const auto* a = std::get_if<StreamOutput>(&last);
    const auto* b = std::get_if<StreamOutput>(&next);
    return a && b && a->name == b->name && !b->spilled;
}

bool mergeStream(Output& last, const Output& next)
{
    if (!canMergeStream(last, next))
        return false;
    appendToStream(std::get<StreamOutput>(last), std::get<StreamOutput>(next).text);
    return true;
}

namespace {

qint64 jsonBytes(const nlohmann::json& j)
{
    if (j.is_string())
        return qint64(j.get_ref<const std::string&>().size()) + 32;
    qint64 n = 16;
    if (j.is_structured()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            n += jsonBytes(*it) + (j.is_object() ? qint64(it.key().size()) + 32 : 0);
    }
    return n;
}

} // namespace

qint64 outputMemoryBytes(const Output& output)
{
    if (const auto* s = std::get_if<StreamOutput>(&output))
        return 2 * (s->text.size() + (s->spilled ? s->spilled->head.size() : 0)) + 64;
    if (const auto* r = std::get_if<RichOutput>(&output))
        return jsonBytes(r->data) + jsonBytes(r->metadata) + 2 * r->displayId.size() + 64;
    const auto& e = std::get<ErrorOutput>(output);
    qint64 n = 2 * (e.ename.size() + e.evalue.size()) + 64;
    for (const QString& line : e.traceback)
        n += 2 * line.size() + 16;
    return n;
}

bool isJsonMime(const QString& mime)
{
    return mime == QLatin1String("application/json") || mime.endsWith(QLatin1String("+json"));
}

const QStringList& mimeRanking()
{
    static const QStringList ranking{
        QStringLiteral("image/png"),        QStringLiteral("image/jpeg"),
        QStringLiteral("image/gif"),        QStringLiteral("image/svg+xml"),
        QStringLiteral("text/html"),        QStringLiteral("text/markdown"),
        QStringLiteral("application/json"), QStringLiteral("text/latex"),
        QStringLiteral("text/plain")};
    return ranking;
}

QString preferredMime(const RichOutput& output,
                      const std::function<bool(const QString& mime)>& usable)
{
    const auto ok = [&](const QString& mime) { return !usable || usable(mime); };
    for (const QString& mime : mimeRanking()) {
        if (output.has(mime) && ok(mime))
            return mime;
    }
    const QStringList present = output.mimeTypes();
    for (const QString& mime : present) {
        if (isJsonMime(mime) && ok(mime))
            return mime;
    }
    for (const QString& mime : present) {
        if (mime.startsWith(QLatin1String("text/")) && ok(mime))
            return mime;
    }
    return {};
}

} // namespace lizard::notebook
