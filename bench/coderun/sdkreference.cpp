#include "sdkreference.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>

namespace lizard::bench {

SdkReference sdkRunCodeMedian(const QString& sdkIndex, const QString& url, const QString& key,
                              const QString& sandboxId, int runs)
{
    SdkReference r;
    const QString node = QStandardPaths::findExecutable(QStringLiteral("node"));
    if (node.isEmpty()) {
        r.error = QStringLiteral("node is not installed");
        return r;
    }
    if (!QFile::exists(sdkIndex)) {
        r.error = sdkIndex + QStringLiteral(" is missing (npm ci in tests/compat)");
        return r;
    }
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("LIZARD_API_URL"), url);
    env.insert(QStringLiteral("LIZARD_API_KEY"), key);
    p.setProcessEnvironment(env);
    p.start(node, {QStringLiteral(LIZARD_SDK_SCRIPT), sdkIndex, sandboxId, QString::number(runs)});
    if (!p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished();
        r.error = QStringLiteral("the SDK script did not finish in 5 minutes");
        return r;
    }
    const QByteArray out = p.readAllStandardOutput().trimmed();
    const QJsonObject answer = QJsonDocument::fromJson(out.mid(out.lastIndexOf('\n') + 1)).object();
    if (answer.contains(QStringLiteral("median"))) {
        r.medianMs = answer.value(QStringLiteral("median")).toDouble();
        return r;
    }
    r.error = answer.value(QStringLiteral("error")).toString();
    if (r.error.isEmpty())
        r.error = QStringLiteral("the SDK script failed: ") +
                  QString::fromUtf8(p.readAllStandardError().right(500));
    return r;
}

} // namespace lizard::bench
