#include "notebook/output.h"

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

bool mergeStream(Output& last, const Output& next)
{
    auto* a = std::get_if<StreamOutput>(&last);
    const auto* b = std::get_if<StreamOutput>(&next);
    if (!a || !b || a->name != b->name)
        return false;
    a->text += b->text;
    return true;
}

bool isJsonMime(const QString& mime)
{
    return mime == QLatin1String("application/json") || mime.endsWith(QLatin1String("+json"));
}

} // namespace lizard::notebook
