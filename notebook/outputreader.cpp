#include "notebook/outputreader.h"

namespace lizard::notebook {

bool OutputReader::read(const nlohmann::json& v, const QString& where, Output* out)
{
    if (!m_check.isObject(v, where))
        return false;
    const nlohmann::json* type = m_check.member(v, "output_type", where);
    QString name;
    if (!type || !m_check.string(*type, JsonCheck::child(where, "output_type"), &name))
        return false;
    if (name == QLatin1String("stream"))
        return readStream(v, where, out);
    if (name == QLatin1String("execute_result"))
        return readRich(v, where, RichOutput::Kind::ExecuteResult, out);
    if (name == QLatin1String("display_data"))
        return readRich(v, where, RichOutput::Kind::DisplayData, out);
    if (name == QLatin1String("error"))
        return readError(v, where, out);
    return m_check.fail(JsonCheck::child(where, "output_type"),
                        QStringLiteral("unknown output type \"%1\" (expected stream, "
                                       "execute_result, display_data or error)")
                            .arg(name));
}

bool OutputReader::readStream(const nlohmann::json& v, const QString& where, Output* out)
{
    StreamOutput s;
    const nlohmann::json* name = m_check.member(v, "name", where);
    const nlohmann::json* text = name ? m_check.member(v, "text", where) : nullptr;
    if (!text || !m_check.string(*name, JsonCheck::child(where, "name"), &s.name) ||
        !m_check.multiline(*text, JsonCheck::child(where, "text"), &s.text))
        return false;
    *out = s;
    return true;
}

bool OutputReader::readRich(const nlohmann::json& v, const QString& where, RichOutput::Kind kind,
                            Output* out)
{
    RichOutput r;
    r.kind = kind;
    const nlohmann::json* data = m_check.member(v, "data", where);
    if (!data || !readBundle(*data, JsonCheck::child(where, "data"), &r.data))
        return false;
    if (const nlohmann::json* meta = m_check.member(v, "metadata", where, false)) {
        if (!m_check.isObject(*meta, JsonCheck::child(where, "metadata")))
            return false;
        r.metadata = *meta;
    }
    if (kind == RichOutput::Kind::ExecuteResult) {
        const nlohmann::json* count = m_check.member(v, "execution_count", where, false);
        if (count && !m_check.optionalInt(*count, JsonCheck::child(where, "execution_count"),
                                          &r.executionCount))
            return false;
    }
    *out = r;
    return true;
}

bool OutputReader::readError(const nlohmann::json& v, const QString& where, Output* out)
{
    ErrorOutput e;
    const nlohmann::json* ename = m_check.member(v, "ename", where);
    const nlohmann::json* evalue = ename ? m_check.member(v, "evalue", where) : nullptr;
    const nlohmann::json* tb = evalue ? m_check.member(v, "traceback", where) : nullptr;
    if (!tb || !m_check.string(*ename, JsonCheck::child(where, "ename"), &e.ename) ||
        !m_check.string(*evalue, JsonCheck::child(where, "evalue"), &e.evalue) ||
        !m_check.stringList(*tb, JsonCheck::child(where, "traceback"), &e.traceback))
        return false;
    *out = e;
    return true;
}

bool OutputReader::readBundle(const nlohmann::json& v, const QString& where, nlohmann::json* out)
{
    if (!m_check.isObject(v, where))
        return false;
    *out = nlohmann::json::object();
    for (auto it = v.begin(); it != v.end(); ++it) {
        const QString mime = QString::fromStdString(it.key());
        if (isJsonMime(mime)) {
            (*out)[it.key()] = it.value();
            continue;
        }
        QString text;
        if (!m_check.multiline(it.value(), QStringLiteral("%1[\"%2\"]").arg(where, mime), &text))
            return false;
        (*out)[it.key()] = text.toStdString();
    }
    return true;
}

} // namespace lizard::notebook
