#include "sdkreference.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>

namespace lizard::bench {

namespace {

// The last line of `node script args...` as JSON; `error` when there is none.
QJsonObject runScript(const QString& script, const QStringList& args, const QString& sdkIndex,
                      const QString& url, const QString& key, QString& error)
{
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty()) {
        error = QStringLiteral("node is not installed");
        return {};
    }
    if (!QFile::exists(sdkIndex)) {
        error = sdkIndex + QStringLiteral(" is missing (npm ci in tests/compat)");
        return {};
    }
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LIZARD_API_URL"), url);
    env.insert(QStringLiteral("LIZARD_API_KEY"), key);
    p.setProcessEnvironment(env);
    p.start(node, QStringList{script, sdkIndex} + args);
    if (!p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished();
        error = QStringLiteral("the SDK script did not finish in 5 minutes");
        return {};
    }
    const QByteArray out = p.readAllStandardOutput().trimmed();
    const QJsonObject answer = QJsonDocument::fromJson(out.mid(out.lastIndexOf('\n') + 1)).object();
    if (answer.isEmpty())
        error = QStringLiteral("the SDK script failed: ") +
                QString::fromUtf8(p.readAllStandardError().right(500));
    else
        error = answer.value(QStringLiteral("error")).toString();
    return answer;
}

} // namespace

SdkReference sdkRunCodeMedian(const QString& sdkIndex, const QString& url, const QString& key,
                              const QString& sandboxId, int runs)
{
    SdkReference r;
    const QJsonObject answer =
        runScript(QStringLiteral(LIZARD_SDK_SCRIPT), {sandboxId, QString::number(runs)}, sdkIndex,
                  url, key, r.error);
    r.medianMs = answer.value(QStringLiteral("median")).toDouble();
    r.pacedMedianMs = answer.value(QStringLiteral("pacedMedian")).toDouble();
    return r;
}

SdkCreate sdkCreateFigures(const QString& sdkIndex, const QString& url, const QString& key,
                           int runs)
{
    SdkCreate r;
    const QJsonObject answer = runScript(QStringLiteral(LIZARD_SDK_CREATE_SCRIPT),
                                         {QString::number(runs)}, sdkIndex, url, key, r.error);
    const QJsonObject warm = answer.value(QStringLiteral("warm")).toObject();
    r.warmMedianMs = warm.value(QStringLiteral("median")).toDouble();
    r.warmP90Ms = warm.value(QStringLiteral("p90")).toDouble();
    r.coldMedianMs =
        answer.value(QStringLiteral("cold")).toObject().value(QStringLiteral("median")).toDouble();
    r.fork10MedianMs =
        answer.value(QStringLiteral("fork")).toObject().value(QStringLiteral("median")).toDouble();
    const QJsonObject idle = answer.value(QStringLiteral("idle")).toObject();
    r.idleMedianMs = idle.value(QStringLiteral("median")).toDouble();
    r.echoIdleMedianMs = idle.value(QStringLiteral("echoMedian")).toDouble();
    return r;
}

SdkFirstChart sdkFirstChartFigures(const QString& sdkIndex, const QString& url, const QString& key,
                                   int runs)
{
    SdkFirstChart r;
    const QJsonObject answer = runScript(QStringLiteral(LIZARD_SDK_FIRSTCHART_SCRIPT),
                                         {QString::number(runs)}, sdkIndex, url, key, r.error);
    for (auto [name, steps] : {std::pair{"warm", &r.warm}, {"cold", &r.cold}}) {
        const QJsonObject o = answer.value(QLatin1String(name)).toObject();
        steps->createMs = o.value(QStringLiteral("create")).toDouble();
        steps->firstMs = o.value(QStringLiteral("first")).toDouble();
        steps->chartMs = o.value(QStringLiteral("chart")).toDouble();
    }
    return r;
}

} // namespace lizard::bench
