#pragma once
// Reads the runner's stdout (JSON lines, see resources/runner/PROTOCOL.md): joins `part` pieces
// (per request id, as serve mode interleaves requests) and hands out whole events. Also the
// source of the runner itself, how its argument is encoded, and the readers of its events.

#include "client/coderun/runcodetypes.h"
#include "client/coderun/runnercall.h"
#include "client/jsonreader.h"
#include "client/outcome.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <nlohmann/json.hpp>

namespace lizard::client {

class RunnerEventDecoder
{
public:
    // One stdout line. Returns the whole event it completes, if any; lines that are not JSON
    // objects (a stray print), or whose `type` or `req` is not a string, are counted in
    // junkLines() and otherwise ignored.
    std::optional<nlohmann::json> feed(const QString& line);
    int junkLines() const { return m_junk; }

private:
    QHash<QString, QString> m_parts; // req ("" without one) -> pieces so far
    int m_junk = 0;
};

// The runner's source, from the Qt resource :/lizard/runner/lizard_runner.py (the artefact that
// resources/runner/bundle.py makes).
QByteArray runnerSource();
// The runner's VERSION (the line `VERSION = "x.y.z"` of its source); empty if it has none.
QString runnerVersion();
// The compact JSON of a request (what the inbox file holds) and its base64, the runner's one
// argument on the exec-per-run path.
QByteArray runnerRequestText(const nlohmann::json& args);
QString encodeRunnerArgs(const nlohmann::json& args);
// A number as the requests have always carried it: a whole number without ".0" (the runner
// reads both; the bytes on the wire stay the same).
nlohmann::json runnerNumber(double value);

// The `type` of an event the decoder handed out ("" without one).
QString runnerEventType(const nlohmann::json& event);
// The fields of a result / update_display event and of an error event.
ExecutionResult resultFromEvent(const JsonReader& event);
ExecutionError errorFromEvent(const JsonReader& event);

// Reads an event with `read`; a field of the wrong type makes it a runner failure: the runner
// is ours, so such an event is a bug to report, not data to guess at.
template <class T, class Read> Outcome<T> readRunnerEvent(const nlohmann::json& event, Read read)
{
    try {
        return read(JsonReader(event, QStringLiteral("the code runner's answer")));
    } catch (const JsonShapeError& e) {
        return Outcome<T>(runnerError(QString::fromStdString(e.what())));
    } catch (const nlohmann::json::exception& e) {
        return Outcome<T>(runnerError(QString::fromStdString(e.what())));
    }
}

} // namespace lizard::client
