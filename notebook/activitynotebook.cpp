#include "notebook/activitynotebook.h"

#include "notebook/clientcoderunner.h"

namespace lizard::notebook {

using client::ActivityRunEvent;

namespace {

ErrorOutput errorOutput(const client::ExecutionError& error)
{
    ErrorOutput out;
    out.ename = error.name;
    out.evalue = error.message;
    const QString& traceback =
        error.tracebackAnsi.isEmpty() ? error.traceback : error.tracebackAnsi;
    out.traceback = traceback.split(QLatin1Char('\n'));
    return out;
}

} // namespace

OutputList outputsFromRunnerEvents(const QList<ActivityRunEvent>& events)
{
    std::vector<Output> outs;
    for (const ActivityRunEvent& ev : events) {
        switch (ev.type) {
        case ActivityRunEvent::Type::Stdout:
        case ActivityRunEvent::Type::Stderr: {
            const bool out = ev.type == ActivityRunEvent::Type::Stdout;
            Output next = StreamOutput{out ? QStringLiteral("stdout") : QStringLiteral("stderr"),
                                       ev.text, std::nullopt};
            if (outs.empty() || !mergeStream(outs.back(), next))
                outs.push_back(std::move(next));
            break;
        }
        case ActivityRunEvent::Type::Result:
            outs.push_back(ClientCodeRunner::toRichOutput(ev.result));
            break;
        case ActivityRunEvent::Type::UpdateDisplay: {
            const RichOutput updated = ClientCodeRunner::toRichOutput(ev.result);
            for (Output& o : outs) {
                if (auto* rich = std::get_if<RichOutput>(&o);
                    rich && !updated.displayId.isEmpty() && rich->displayId == updated.displayId) {
                    rich->data = updated.data;
                    rich->metadata = updated.metadata;
                }
            }
            break;
        }
        case ActivityRunEvent::Type::ClearOutput:
            outs.clear();
            break;
        case ActivityRunEvent::Type::Error:
            outs.push_back(errorOutput(ev.error));
            break;
        default:
            break;
        }
    }
    OutputList list;
    for (Output& o : outs)
        list.push_back(std::move(o));
    return list;
}

CellData cellFromRunCode(const client::ActivityEntry& entry)
{
    CellData cell;
    cell.type = CellType::Code;
    cell.source = entry.code;
    cell.outputs = outputsFromRunnerEvents(entry.events);
    for (const ActivityRunEvent& ev : entry.events) {
        if (ev.type == ActivityRunEvent::Type::Done && ev.executionCount)
            cell.executionCount = *ev.executionCount;
    }
    return cell;
}

QString activityLanguage(const client::ActivityEntry& entry)
{
    return entry.language.isEmpty() ? QStringLiteral("python") : entry.language;
}

QString activityContextId(const client::ActivityEntry& entry)
{
    return entry.context.isEmpty() ? QStringLiteral("default-") + activityLanguage(entry)
                                   : entry.context;
}

NotebookData notebookFromActivity(const std::vector<client::ActivityEntry>& entries,
                                  const QString& contextId)
{
    NotebookData data;
    QString language;
    for (const client::ActivityEntry& e : entries) {
        if (e.kind != QLatin1String("runCode") || activityContextId(e) != contextId)
            continue;
        if (language.isEmpty() && !e.language.isEmpty())
            language = e.language;
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
