#pragma once
// Turns the runner's stdout lines into events, joining "part" lines the way the official SDK does.

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace lizard::test {

class EventDecoder
{
public:
    // One line of runner output: a complete event, or nothing (a part, or a line that is not JSON).
    std::optional<QJsonObject> feed(const QByteArray& line);
    int partLines() const { return m_partLines; }
    int junkLines() const { return m_junkLines; }

private:
    QString m_part;
    int m_partLines = 0;
    int m_junkLines = 0;
};

// The events of one request, with small queries used by the tests.
struct RunnerOutcome
{
    QList<QJsonObject> events;
    int exitCode = -1;
    bool finished = false;
    QByteArray stderrText;
    int partLines = 0;
    qint64 elapsedMs = 0;

    QList<QJsonObject> ofType(const QString& type) const;
    QJsonObject first(const QString& type) const; // empty object when there is none
    QString text(const QString& stream) const;    // all stdout or stderr data, concatenated
    QString describe() const;                     // everything, for failure messages
};

bool isTerminalEvent(const QJsonObject& event); // done, ok, fatal, context, contexts

} // namespace lizard::test
