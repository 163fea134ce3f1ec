#include "client/coderun/runnerevents.h"

#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <optional>

namespace lizard::client {

std::optional<QJsonObject> RunnerEventDecoder::feed(const QString& line)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(line.toUtf8(), &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) {
        ++m_junk;
        return std::nullopt;
    }
    QJsonObject ev = doc.object();
    if (ev.value(QStringLiteral("type")).toString() != QLatin1String("part"))
        return ev;
    const QString req = ev.value(QStringLiteral("req")).toString();
    QString& pieces = m_parts[req];
    pieces += ev.value(QStringLiteral("data")).toString();
    if (!ev.value(QStringLiteral("end")).toBool())
        return std::nullopt;
    const QString whole = m_parts.take(req);
    return feed(whole);
}

QByteArray runnerSource()
{
    QFile f(QStringLiteral(":/lizard/runner/lizard_runner.py"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

QString runnerVersion()
{
    static const QRegularExpression line(QStringLiteral("^VERSION = \"([^\"]+)\"$"),
                                         QRegularExpression::MultilineOption);
    return line.match(QString::fromUtf8(runnerSource())).captured(1);
}

QString encodeRunnerArgs(const QJsonObject& args)
{
    return QString::fromLatin1(QJsonDocument(args).toJson(QJsonDocument::Compact).toBase64());
}

} // namespace lizard::client
