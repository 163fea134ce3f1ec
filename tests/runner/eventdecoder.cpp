#include "runner/eventdecoder.h"

#include <QJsonDocument>

namespace lizard::test {

std::optional<QJsonObject> EventDecoder::feed(const QByteArray& line)
{
    QJsonParseError error{};
    QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        ++m_junkLines;
        m_part.clear();
        return std::nullopt;
    }
    QJsonObject event = doc.object();
    if (event.value("type").toString() == "part") {
        ++m_partLines;
        m_part += event.value("data").toString();
        if (!event.value("end").toBool())
            return std::nullopt;
        doc = QJsonDocument::fromJson(m_part.toUtf8(), &error);
        m_part.clear();
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            ++m_junkLines;
            return std::nullopt;
        }
        event = doc.object();
    }
    return event;
}

QList<QJsonObject> RunnerOutcome::ofType(const QString& type) const
{
    QList<QJsonObject> found;
    for (const QJsonObject& e : events) {
        if (e.value("type").toString() == type)
            found.append(e);
    }
    return found;
}

QJsonObject RunnerOutcome::first(const QString& type) const
{
    const QList<QJsonObject> found = ofType(type);
    return found.isEmpty() ? QJsonObject{} : found.first();
}

QString RunnerOutcome::text(const QString& stream) const
{
    QString all;
    for (const QJsonObject& e : ofType(stream))
        all += e.value("data").toString();
    return all;
}

QString RunnerOutcome::describe() const
{
    QString all = QString("exit %1 after %2 ms\n").arg(exitCode).arg(elapsedMs);
    for (const QJsonObject& e : events)
        all += QString::fromUtf8(QJsonDocument(e).toJson(QJsonDocument::Compact)).left(600) + "\n";
    return all + QString::fromUtf8(stderrText.right(2000));
}

bool isTerminalEvent(const QJsonObject& event)
{
    static const QStringList terminal{"done", "ok", "fatal", "context", "contexts"};
    return terminal.contains(event.value("type").toString());
}

} // namespace lizard::test
