#pragma once
// Reads the runner's stdout (JSON lines, see resources/runner/PROTOCOL.md): joins `part` pieces
// (per request id, as serve mode interleaves requests) and hands out whole events. Also the
// source of the runner itself and how its argument is encoded.

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace lizard::client {

class RunnerEventDecoder
{
public:
    // One stdout line. Returns the whole event it completes, if any; lines that are not JSON
    // objects (a stray print) are counted in junkLines() and otherwise ignored.
    std::optional<QJsonObject> feed(const QString& line);
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
// base64 of the compact JSON of `args`: the runner's one argument.
QString encodeRunnerArgs(const QJsonObject& args);

} // namespace lizard::client
