#include "notebook/activitynotebook.h"

namespace lizard::notebook {

namespace {

QString str(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                            : QString();
}

RichOutput richFromEvent(const nlohmann::json& ev)
{
    RichOutput out;
    const bool display = ev.value("display", true);
    out.kind = display ? RichOutput::Kind::DisplayData : RichOutput::Kind::ExecuteResult;
    if (!display && ev.contains("execution_count") && ev["execution_count"].is_number_integer())
        out.executionCount = ev["execution_count"].get<int>();
    out.displayId = str(ev, "display_id");
    // Our runner sends every MIME type in `bundle`; the SDK's only the best one in mime/data.
    nlohmann::json bundle = ev.value("bundle", nlohmann::json::object());
    if (!bundle.is_object() || bundle.empty())
        bundle = {{ev.value("mime", std::string("text/plain")), ev.value("data", std::string())}};
    for (const auto& [mime, value] : bundle.items()) {
        if (isJsonMime(QString::fromStdString(mime)) && value.is_string()) {
            // JSON values travel as JSON text; nbformat keeps them as JSON.
            nlohmann::json parsed = nlohmann::json::parse(value.get<std::string>(), nullptr, false);
            out.data[mime] = parsed.is_discarded() ? value : parsed;
        } else {
            out.data[mime] = value;
        }
    }
    if (const auto it = ev.find("metadata"); it != ev.end() && it->is_object())
        out.metadata = *it;
    return out;
}

ErrorOutput errorFromEvent(const nlohmann::json& ev)
{
    ErrorOutput out;
    out.ename = str(ev, "name");
    out.evalue = str(ev, "message");
    QString traceback = str(ev, "traceback_ansi");
    if (traceback.isEmpty())
        traceback = str(ev, "traceback");
    out.traceback = traceback.split(QLatin1Char('\n'));
    return out;
}

} // namespace

OutputList outputsFromRunnerEvents(const nlohmann::json& events)
{
    std::vector<Output> outs;
    if (!events.is_array())
        return {};
    for (const auto& ev : events) {
        if (!ev.is_object())
            continue;
        const std::string type = ev.value("type", std::string());
        if (type == "stdout" || type == "stderr") {
            Output next = StreamOutput{QString::fromStdString(type), str(ev, "data"), std::nullopt};
            if (outs.empty() || !mergeStream(outs.back(), next))
                outs.push_back(std::move(next));
        } else if (type == "result") {
            outs.push_back(richFromEvent(ev));
        } else if (type == "update_display") {
            RichOutput updated = richFromEvent(ev);
            for (Output& o : outs) {
                if (auto* rich = std::get_if<RichOutput>(&o);
                    rich && !updated.displayId.isEmpty() && rich->displayId == updated.displayId) {
                    rich->data = updated.data;
                    rich->metadata = updated.metadata;
                }
            }
        } else if (type == "clear_output") {
            outs.clear();
        } else if (type == "error") {
            outs.push_back(errorFromEvent(ev));
        }
    }
    OutputList list;
    for (Output& o : outs)
        list.push_back(std::move(o));
    return list;
}

CellData cellFromRunCode(const nlohmann::json& entry)
{
    CellData cell;
    cell.type = CellType::Code;
    cell.source = str(entry, "code");
    const nlohmann::json events = entry.value("events", nlohmann::json::array());
    cell.outputs = outputsFromRunnerEvents(events);
    for (const auto& ev : events) {
        if (ev.is_object() && ev.value("type", std::string()) == "done" &&
            ev.contains("execution_count") && ev["execution_count"].is_number_integer())
            cell.executionCount = ev["execution_count"].get<int>();
    }
    return cell;
}

QString activityLanguage(const nlohmann::json& entry)
{
    const QString lang = str(entry, "language");
    return lang.isEmpty() ? QStringLiteral("python") : lang;
}

QString activityContextId(const nlohmann::json& entry)
{
    const QString context = str(entry, "context");
    return context.isEmpty() ? QStringLiteral("default-") + activityLanguage(entry) : context;
}

NotebookData notebookFromActivity(const std::vector<nlohmann::json>& entries,
                                  const QString& contextId)
{
    NotebookData data;
    QString language;
    for (const auto& e : entries) {
        if (e.value("kind", std::string()) != "runCode" || activityContextId(e) != contextId)
            continue;
        if (language.isEmpty() && e.contains("language"))
            language = activityLanguage(e);
        data.cells.push_back(cellFromRunCode(e));
    }
    if (language.isEmpty())
        language = contextId.startsWith(QStringLiteral("default-")) ? contextId.mid(8)
                                                                    : QStringLiteral("python");
    const std::string lang = language.toStdString();
    if (lang == "python")
        data.metadata["kernelspec"] = {
            {"name", "python3"}, {"display_name", "Python 3"}, {"language", "python"}};
    else
        data.metadata["kernelspec"] = {{"name", lang}, {"display_name", lang}, {"language", lang}};
    data.metadata["language_info"] = {{"name", lang}};
    data.metadata["lizard"] = {{"activityContext", contextId.toStdString()}};
    return data;
}

} // namespace lizard::notebook
