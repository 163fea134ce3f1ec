// Resource metrics of sandboxes (a local extension, api/DECISIONS.md "Metrics"): what a CPU loop,
// an allocation, a write and a download show; pauses without samples, lifecycle events, the
// live stream, the project's totals, bad input, a restart that keeps the series, and a series
// that goes with its sandbox. Sampled every 250 ms (--metrics-interval-ms) so that it takes
// seconds. As root and, in the server-user pass, with lizard-local as an ordinary user, whose
// figures come from /proc instead of cgroups.
#include "security/net_support.h"
#include "support_http.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTcpSocket>
#include <unistd.h>

using lizard::test::describe;
using lizard::test::isError;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::toJson;

namespace {

constexpr int kIntervalMs = 250;
constexpr double kMiB = 1024.0 * 1024.0;

// The area under a rate series (value × seconds) over its points after `fromMs`: what it
// counted in that time (CPU seconds, bytes).
double integral(const QJsonArray& series, qint64 fromMs)
{
    double sum = 0;
    qint64 previous = -1;
    for (const auto& v : series) {
        const QJsonObject p = v.toObject();
        const qint64 t = qint64(p.value("t").toDouble());
        if (t > fromMs && previous >= 0)
            sum += p.value("value").toDouble() * double(t - std::max(previous, fromMs)) / 1000.0;
        previous = t;
    }
    return sum;
}

} // namespace

class TestApiMetrics : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    QString m_id;    // the sandbox that loops, allocates, writes and downloads
    QString m_other; // the one that is paused, followed and killed

    QJsonObject metrics(const QString& id, const QString& range = "10m") const
    {
        const auto r = m_server.request("GET", "/api/sandboxes/" + id + "/metrics?range=" + range);
        if (r.status != 200)
            qWarning() << describe(r);
        return jsonObject(r);
    }
    double latest(const QString& id, const QString& figure) const
    {
        return metrics(id).value("latest").toObject().value(figure).toDouble(-1);
    }
    qint64 latestT(const QString& id) const
    {
        return qint64(metrics(id).value("latest").toObject().value("t").toDouble());
    }
    QString sh(const QString& id, const QString& cmd) const
    {
        const auto r = m_server.request("POST", "/api/sandboxes/" + id + "/exec",
                                        toJson({{"cmd", cmd}, {"timeoutMs", 120000}}));
        if (r.status != 200)
            qWarning() << describe(r);
        return jsonObject(r).value("stdout").toString().trimmed();
    }
    // CPU seconds of every process of the sandbox so far, and when (its process tree).
    std::pair<double, qint64> processCpu(const QString& id) const
    {
        const QJsonObject tree =
            jsonObject(m_server.request("GET", "/api/sandboxes/" + id + "/processes/tree"));
        double ms = 0;
        for (const auto& p : tree.value("processes").toArray())
            ms += p.toObject().value("cpuMs").toDouble();
        return {ms / 1000.0, qint64(tree.value("sampledAt").toDouble())};
    }
    bool hasEvent(const QString& id, const QString& kind) const
    {
        for (const auto& e : metrics(id).value("events").toArray())
            if (e.toObject().value("kind").toString() == kind)
                return true;
        return false;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start({"--metrics-interval-ms", QString::number(kIntervalMs)}),
                 qPrintable(m_server.errorString()));
        QString why;
        m_id = lizard::test::createSandbox(m_server, {}, &why);
        LIZ_REQUIRE_SANDBOX(m_id, why);
        m_other = lizard::test::createSandbox(m_server, {{"size", "nano"}}, &why);
        LIZ_REQUIRE_SANDBOX(m_other, why);
        QTRY_VERIFY_WITH_TIMEOUT(latestT(m_id) > 0 && latestT(m_other) > 0, 10000);
    }

    void answersTheSdkShapeWithLimitsAndEvents()
    {
        const QJsonObject m = metrics(m_id, "1h");
        for (const char* series :
             {"cpu", "memory", "networkRx", "networkTx", "diskRead", "diskWrite", "pids", "disk"})
            QVERIFY2(m.value(series).isArray(), series);
        const QJsonObject point = m.value("memory").toArray().last().toObject();
        QVERIFY(point.value("value").toDouble() > 0);
        QVERIFY(qAbs(qint64(point.value("t").toDouble()) - QDateTime::currentMSecsSinceEpoch()) <
                60000);
        QCOMPARE(m.value("range").toString(), QStringLiteral("1h"));
        QCOMPARE(m.value("intervalMs").toInt(), kIntervalMs);
        const QString source = m.value("source").toString();
        QVERIFY2(source == "cgroup" || source == "proc", qPrintable(source));
        qInfo("figures from %s", qPrintable(source));
        // The limits as the sandbox's info states them.
        const QJsonObject info = jsonObject(m_server.request("GET", "/api/sandboxes/" + m_id));
        const QJsonObject limits = m.value("limits").toObject();
        QCOMPARE(limits.value("memoryMb").toInt(), info.value("memoryMb").toInt());
        QCOMPARE(limits.contains("cpus"), info.contains("cpus"));
        QCOMPARE(limits.value("diskGb").toInt(), info.value("diskGb").toInt());
        QVERIFY(limits.value("pids").toInt() > 0);
        QVERIFY(hasEvent(m_id, "created"));
        QVERIFY(m.value("latest").toObject().value("pids").toDouble() >= 1);
    }

    void aCpuLoopShowsWhatItUses()
    {
        const QString loop =
            sh(m_id, "timeout 60 sh -c 'while :; do :; done' >/dev/null 2>&1 & echo $!");
        QVERIFY(loop.toInt() > 0);
        // Within seconds the loop shows...
        QTRY_VERIFY_WITH_TIMEOUT(latest(m_id, "cpu") > 0.05, 5000);
        // ... and what the samples add up to is the CPU time the sandbox's processes got, whatever
        // share of a loaded machine that is (about one core on an idle one).
        const auto [cpuA, tA] = processCpu(m_id);
        QTRY_VERIFY_WITH_TIMEOUT(latestT(m_id) > tA + 3000, 10000);
        const auto [cpuB, tB] = processCpu(m_id);
        const QJsonArray cpu = metrics(m_id).value("cpu").toArray();
        qint64 first = 0, last = 0;
        for (const auto& v : cpu) {
            const qint64 t = qint64(v.toObject().value("t").toDouble());
            if (t >= tA && first == 0)
                first = t;
            if (t <= tB)
                last = t;
        }
        QVERIFY(last > first);
        const double counted = integral(cpu, first) - integral(cpu, last);
        const double used = (cpuB - cpuA) * double(last - first) / double(tB - tA);
        qInfo("CPU loop: %.2f cores by the metrics, %.2f by the process tree",
              counted * 1000 / double(last - first), used * 1000 / double(last - first));
        QVERIFY2(counted > 0.6 * used && counted < 1.5 * used + 0.05,
                 qPrintable(QStringLiteral("%1 s counted, %2 s used").arg(counted).arg(used)));
        QVERIFY(counted * 1000 / double(last - first) < 1.3); // one loop, one core at most
        sh(m_id, "kill " + loop);
        QTRY_VERIFY_WITH_TIMEOUT(latest(m_id, "cpu") < 0.2, 5000);
    }

    void anAllocationShowsInMemory()
    {
        const double before = latest(m_id, "memory");
        QVERIFY(before > 0);
        const QString pid =
            sh(m_id, "nohup python3 -c 'import time; b = b\"x\" * (300 << 20); time.sleep(120)' "
                     ">/dev/null 2>&1 & echo $!");
        QVERIFY(pid.toInt() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(latest(m_id, "memory") > before + 280 * kMiB, 30000);
        sh(m_id, "kill " + pid);
        QTRY_VERIFY_WITH_TIMEOUT(latest(m_id, "memory") < before + 100 * kMiB, 10000);
    }

    void aWriteShowsInDiskAndDiskWrite()
    {
        const double before = latest(m_id, "disk");
        const qint64 from = latestT(m_id);
        // A writer that stays: as an ordinary user, what an ended process wrote is counted only
        // while its parent can be read (api/DECISIONS.md, "Metrics").
        const QString pid =
            sh(m_id, "nohup python3 -c 'import os, time\n"
                     "f = open(\"/root/big\", \"wb\")\n"
                     "for _ in range(200): f.write(b\"\\0\" * (1 << 20))\n"
                     "f.flush(); os.fsync(f.fileno()); time.sleep(120)' >/dev/null 2>&1 & echo $!");
        QVERIFY(pid.toInt() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(latest(m_id, "disk") > before + 190 * kMiB, 20000);
        const QJsonArray writes = metrics(m_id).value("diskWrite").toArray();
        if (writes.isEmpty()) {
            qInfo("this host does not say what the sandbox's processes write");
        } else {
            double written = 0;
            QTRY_VERIFY_WITH_TIMEOUT(
                (written = integral(metrics(m_id).value("diskWrite").toArray(), from)) > 190 * kMiB,
                10000);
            qInfo("diskWrite counted %.0f MiB", written / kMiB);
        }
        sh(m_id, "kill " + pid + "; rm -f /root/big");
        QTRY_VERIFY_WITH_TIMEOUT(latest(m_id, "disk") < before + 50 * kMiB, 20000);
    }

    void aDownloadShowsInNetworkRx()
    {
        if (::geteuid() != 0)
            QSKIP("the remote host is a network namespace, which needs root");
        const QJsonObject info = jsonObject(m_server.request("GET", "/api/sandboxes/" + m_id));
        if (!info.value("internetAccess").toBool())
            QSKIP("this server gives sandboxes no network (no usable slirp4netns)");
        // A host that is not this one (the sandbox may not reach this host's own addresses):
        // a network namespace behind a veth pair, serving 50 MiB to whoever connects.
        lizard::test::VethHost remote;
        QString why;
        QVERIFY2(remote.start(&why), qPrintable(why));
        QProcess server;
        server.start("ip", {"netns", "exec", remote.netns(), "python3", "-u", "-c",
                            "import socket\n"
                            "s = socket.socket(); s.bind(('0.0.0.0', 0)); s.listen(4)\n"
                            "print(s.getsockname()[1], flush=True)\n"
                            "while True:\n"
                            "    c, _ = s.accept(); c.sendall(b'\\0' * (50 << 20)); c.close()\n"});
        QVERIFY(server.waitForReadyRead(10000));
        const int port = server.readLine().trimmed().toInt();
        QVERIFY(port > 0);
        const qint64 from = latestT(m_id);
        const QString got = sh(m_id, QStringLiteral("python3 -c 'import socket\n"
                                                    "s = socket.create_connection((\"%1\", %2))\n"
                                                    "n = 0\n"
                                                    "while True:\n"
                                                    "    d = s.recv(1 << 16)\n"
                                                    "    if not d: break\n"
                                                    "    n += len(d)\n"
                                                    "print(n)'")
                                         .arg(remote.remote)
                                         .arg(port));
        server.kill();
        server.waitForFinished(5000);
        QCOMPARE(got, QString::number(50 << 20));
        double received = 0;
        QTRY_VERIFY_WITH_TIMEOUT(
            (received = integral(metrics(m_id).value("networkRx").toArray(), from)) > 48 * kMiB,
            5000);
        qInfo("networkRx counted %.1f MiB", received / kMiB);
    }

    void aPausedSandboxHasNoSamplesAndIsMarked()
    {
        QCOMPARE(m_server.request("POST", "/api/sandboxes/" + m_other + "/pause").status, 204);
        QTRY_VERIFY_WITH_TIMEOUT(hasEvent(m_other, "paused"), 5000);
        const qint64 pausedAt = latestT(m_other);
        // The other sandbox's samples tell the time: eight intervals later, still nothing new.
        QTRY_VERIFY_WITH_TIMEOUT(latestT(m_id) > pausedAt + 8 * kIntervalMs, 10000);
        QVERIFY(latestT(m_other) <= pausedAt + kIntervalMs);
        QCOMPARE(metrics(m_other).value("status").toString(), QStringLiteral("paused"));
        const QJsonObject project =
            jsonObject(m_server.request("GET", "/api/projects/default/metrics"));
        QCOMPARE(project.value("paused").toInt(), 1);
        QCOMPARE(m_server.request("POST", "/api/sandboxes/" + m_other + "/resume").status, 204);
        QTRY_VERIFY_WITH_TIMEOUT(hasEvent(m_other, "resumed"), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(latestT(m_other) > pausedAt + kIntervalMs, 5000);
    }

    void theProjectHasTotalsAndItsBiggestUsers()
    {
        const auto r = m_server.request("GET", "/api/projects/default/metrics");
        QCOMPARE(r.status, 200);
        const QJsonObject p = jsonObject(r);
        QCOMPARE(p.value("running").toInt(), 2);
        const QJsonArray sandboxes = p.value("sandboxes").toArray();
        QCOMPARE(sandboxes.size(), 2);
        double memory = 0;
        for (const auto& v : sandboxes) {
            const QJsonObject s = v.toObject();
            QVERIFY(s.value("sandboxId") == m_id || s.value("sandboxId") == m_other);
            memory += s.value("latest").toObject().value("memory").toDouble();
            QVERIFY(s.value("limits").isObject());
        }
        QVERIFY(memory > 0);
        // Totals of the same latest samples (the two reads may straddle a sample).
        QVERIFY(p.value("totals").toObject().value("memory").toDouble() > memory / 2);
        const QJsonObject sampler = p.value("sampler").toObject();
        QVERIFY(sampler.value("ticks").toDouble() > 0);
        QCOMPARE(sampler.value("sandboxes").toInt(), 2);
        // By id or slug; unknown: 404.
        const QString projectId = p.value("projectId").toString();
        QCOMPARE(m_server.request("GET", "/api/projects/" + projectId + "/metrics").status, 200);
        QVERIFY(isError(m_server.request("GET", "/api/projects/nope/metrics"), 404, "NOT_FOUND"));
    }

    void badInputIsRefused()
    {
        const auto bad = m_server.request("GET", "/api/sandboxes/" + m_id + "/metrics?range=7d");
        QVERIFY2(isError(bad, 400, "INVALID_RANGE"), qPrintable(describe(bad)));
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/" + m_id + "/metrics?range=x"), 400,
                        "INVALID_RANGE"));
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/sb_nosuchsandbox/metrics"), 404,
                        "NOT_FOUND"));
        // Without a range: the SDK's default, an hour.
        QCOMPARE(metrics(m_id, "").value("range").toString(), QStringLiteral("1h"));
        for (const char* range : {"10m", "6h", "24h"})
            QCOMPARE(metrics(m_id, range).value("range").toString(), QString(range));
        // A read-only key may read them.
        const auto made = m_server.request(
            "POST", "/api/account/api-keys",
            toJson({{"name", "reader"},
                    {"scopes", QJsonArray{QJsonObject{{"type", "access"}, {"id", "read-only"}}}}}));
        QCOMPARE(made.status, 200);
        const QByteArray key = jsonObject(made).value("key").toString().toUtf8();
        QCOMPARE(m_server.request("GET", "/api/sandboxes/" + m_id + "/metrics", {}, key).status,
                 200);
        QCOMPARE(m_server.request("GET", "/api/projects/default/metrics", {}, key).status, 200);
        // A bad interval: lizard-local does not start.
        QProcess p;
        p.start(LocalServer::serverBinary(), {"--metrics-interval-ms", "10"});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("--metrics-interval-ms"));
    }

    void theStreamFollowsUntilTheSandboxGoes()
    {
        const QString metricsFile = m_server.dataDir() + "/sandboxes/" + m_other + "/metrics.bin";
        QVERIFY2(QFile::exists(metricsFile), qPrintable(metricsFile));
        QTcpSocket s;
        s.connectToHost("127.0.0.1", quint16(m_server.port()));
        QVERIFY(s.waitForConnected(5000));
        s.write("GET /api/sandboxes/" + m_other.toUtf8() +
                "/metrics?range=10m HTTP/1.1\r\nHost: x\r\nX-API-Key: " +
                m_server.apiKey().toUtf8() + "\r\nAccept: text/event-stream\r\n\r\n");
        QByteArray got;
        const auto read = [&] {
            s.waitForReadyRead(100);
            got += s.readAll();
            return got;
        };
        QTRY_VERIFY_WITH_TIMEOUT(read().count("event: sample\n") >= 2, 5000);
        QVERIFY(got.startsWith("HTTP/1.1 200"));
        QVERIFY(got.contains("text/event-stream"));
        const int first = got.indexOf("event: metrics\ndata: {");
        QVERIFY(first > 0 && first < got.indexOf("event: sample"));
        // A lifecycle event comes as it happens.
        const auto timeout = m_server.request("POST", "/api/sandboxes/" + m_other + "/timeout",
                                              toJson({{"timeoutMs", 600000}}));
        QCOMPARE(timeout.status, 204);
        QTRY_VERIFY_WITH_TIMEOUT(read().contains("event: lifecycle\ndata: {"), 5000);
        QVERIFY(got.contains("\"kind\":\"timeout\""));
        // Killed: the stream ends, the route answers 404, the file goes with its directory.
        QCOMPARE(m_server.request("DELETE", "/api/sandboxes/" + m_other).status, 204);
        QTRY_VERIFY_WITH_TIMEOUT(read().contains("event: end\n"), 5000);
        QVERIFY(isError(m_server.request("GET", "/api/sandboxes/" + m_other + "/metrics"), 404,
                        "NOT_FOUND"));
        QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(metricsFile), 10000);
    }

    void aRestartKeepsTheSeries()
    {
        const QJsonObject before = metrics(m_id);
        const qint64 oldest =
            qint64(before.value("memory").toArray().first().toObject().value("t").toDouble());
        QVERIFY(oldest > 0);
        QVERIFY(m_server.restart());
        const QJsonObject after = metrics(m_id);
        QCOMPARE(qint64(after.value("memory").toArray().first().toObject().value("t").toDouble()),
                 oldest);
        QVERIFY(hasEvent(m_id, "created"));
        // And sampling goes on.
        const qint64 last = latestT(m_id);
        QTRY_VERIFY_WITH_TIMEOUT(latestT(m_id) > last, 10000);
    }
};

QTEST_GUILESS_MAIN(TestApiMetrics)
#include "tst_api_metrics.moc"
