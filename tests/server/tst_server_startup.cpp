// lizard-local startup: the two stdout lines, key file, server.json, data dir, the instance
// lock, clean exit, argument errors.
#include "support_http.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

using lizard::test::LocalServer;

namespace {

unsigned modeOf(const QString& path)
{
    struct stat st
    {
    };
    if (::stat(path.toLocal8Bit().constData(), &st) != 0)
        return 0;
    return st.st_mode & 07777;
}

} // namespace

class TestServerStartup : public QObject
{
    Q_OBJECT

private slots:
    void printsUrlAndKeyFile()
    {
        LocalServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const QString log = QString::fromUtf8(server.log());
        QVERIFY2(QRegularExpression("^lizard-local \\S+ listening on http://127\\.0\\.0\\.1:\\d+$",
                                    QRegularExpression::MultilineOption)
                     .match(log)
                     .hasMatch(),
                 qPrintable(log));
        QCOMPARE(server.keyFile(), QDir(server.dataDir()).absoluteFilePath("api-key"));
        QVERIFY(QFileInfo(server.keyFile()).isAbsolute());
        QVERIFY2(QRegularExpression("^liz_[A-Za-z0-9]{40}$").match(server.apiKey()).hasMatch(),
                 qPrintable(server.apiKey()));
        if (!server.runsAsOtherUser()) {
            QCOMPARE(modeOf(server.keyFile()), 0600u);
            QCOMPARE(modeOf(server.dataDir()), 0700u);
            QCOMPARE(modeOf(server.dataDir() + "/server.json"), 0600u);
        }
        QFile info(server.dataDir() + "/server.json");
        QVERIFY(info.open(QIODevice::ReadOnly));
        const QJsonObject j = QJsonDocument::fromJson(info.readAll()).object();
        QCOMPARE(j.value("url").toString(), server.url());
        QCOMPARE(j.value("port").toInt(), server.port());
        QCOMPARE(j.value("keyFile").toString(), server.keyFile());
        QVERIFY(j.value("pid").toInteger() > 0);
        QVERIFY(!j.value("version").toString().isEmpty());

        const auto me = server.request("GET", "/api/auth/me");
        QCOMPARE(me.status, 200);
        QCOMPARE(lizard::test::jsonObject(me).value("keyPrefix").toString(),
                 server.apiKey().left(8));
        // Bearer works as well as X-API-Key.
        const auto bearer = server.request("GET", "/api/auth/me", {}, QByteArray(),
                                           {"Authorization: Bearer " + server.apiKey().toUtf8()});
        QCOMPARE(bearer.status, 200);
    }

    void databaseStoresOnlyTheKeyHash()
    {
        LocalServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        server.stop();
        QByteArray all;
        for (const char* name : {"lizard.db", "lizard.db-wal"}) {
            QFile f(server.dataDir() + "/" + name);
            if (f.open(QIODevice::ReadOnly))
                all += f.readAll();
        }
        QVERIFY(!all.isEmpty());
        QVERIFY(!all.contains(server.apiKey().toUtf8()));
        QVERIFY(!all.contains(server.apiKey().mid(4).toUtf8()));
    }

    void restartKeepsTheKey()
    {
        LocalServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        const QString key = server.apiKey();
        const int port = server.port();
        QVERIFY2(server.restart(), qPrintable(server.errorString()));
        QCOMPARE(server.apiKey(), key);
        QCOMPARE(server.port(), port);
        QCOMPARE(server.request("GET", "/api/projects").status, 200);
    }

    void secondInstanceIsRefused()
    {
        LocalServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        QProcess second;
        second.setProcessChannelMode(QProcess::MergedChannels);
        if (server.runsAsOtherUser())
            second.start("runuser", {"-u", server.serverUser(), "--", LocalServer::serverBinary(),
                                     "--port", "0", "--data-dir", server.dataDir()});
        else
            second.start(LocalServer::serverBinary(),
                         {"--port", "0", "--data-dir", server.dataDir()});
        QVERIFY(second.waitForFinished(20000));
        const QString out = QString::fromUtf8(second.readAll());
        QCOMPARE(second.exitCode(), 3);
        QVERIFY2(out.contains("already running") && out.contains(server.url()), qPrintable(out));
        QCOMPARE(server.request("GET", "/api/projects").status, 200); // the first one is unharmed
    }

    void cleanExitOnSigterm()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.path() + "/data";
        QProcess p;
        p.start(LocalServer::serverBinary(), {"--port", "0", "--data-dir", dir});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT((out += p.readAllStandardOutput()).contains("key file: "), 60000);
        QVERIFY(QFile::exists(dir + "/server.json"));
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(20000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(!QFile::exists(dir + "/server.json"));
        // stdout carries exactly the two startup lines.
        out += p.readAllStandardOutput();
        const QList<QByteArray> lines = out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith("lizard-local "));
        QCOMPARE(lines[1], "key file: " + QDir(dir).absoluteFilePath("api-key").toUtf8());
    }

    void busyProxyPortIsNotFatal()
    {
        // Another program holds API port + 1 (the proxy's usual port): lizard-local still starts,
        // with its port proxy on a free port, and says where in server.json.
        int held = -1;
        int apiPort = 0;
        for (int attempt = 0; attempt < 20 && held < 0; ++attempt) {
            const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in a{};
            a.sin_family = AF_INET;
            a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            socklen_t len = sizeof a;
            ::bind(probe, reinterpret_cast<sockaddr*>(&a), sizeof a);
            ::getsockname(probe, reinterpret_cast<sockaddr*>(&a), &len);
            apiPort = ntohs(a.sin_port);
            ::close(probe);
            held = ::socket(AF_INET, SOCK_STREAM, 0);
            a.sin_port = htons(quint16(apiPort + 1));
            if (::bind(held, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
                ::listen(held, 1) != 0) {
                ::close(held);
                held = -1;
            }
        }
        QVERIFY(held >= 0);
        QTemporaryDir tmp;
        const QString dir = tmp.path() + "/data";
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(LocalServer::serverBinary(),
                {"--port", QString::number(apiPort), "--data-dir", dir});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        QTRY_VERIFY_WITH_TIMEOUT(
            (out += p.readAll()).contains("key file: ") || p.state() != QProcess::Running, 60000);
        ::close(held);
        QVERIFY2(out.contains("key file: "), out.constData());
        QFile info(dir + "/server.json");
        QVERIFY(info.open(QIODevice::ReadOnly));
        const QJsonObject j = QJsonDocument::fromJson(info.readAll()).object();
        QCOMPARE(j.value("port").toInt(), apiPort);
        const int proxyPort = j.value("proxyPort").toInt();
        QVERIFY2(proxyPort > 0 && proxyPort != apiPort + 1, qPrintable(QString::number(proxyPort)));
        ::kill(pid_t(p.processId()), SIGTERM);
        QVERIFY(p.waitForFinished(20000));
        QVERIFY2(out.contains("the port proxy uses a free port instead"), out.constData());
    }

    // Without the interpreter template's host packages, creating one says which are missing (the
    // app's New notebook shows this message) and leaves no sandbox. A module no host has stands
    // in for a missing package (LIZARD_TEST_INTERPRETER_MODULES).
    void interpreterTemplateNamesMissingPackages()
    {
        qputenv("LIZARD_TEST_INTERPRETER_MODULES", "lizard_no_such_module,bad name;rm");
        LocalServer server;
        const bool started = server.start();
        qunsetenv("LIZARD_TEST_INTERPRETER_MODULES");
        QVERIFY2(started, qPrintable(server.errorString()));
        // Other packages may be missing too on this host; the stand-in is always among them.
        QVERIFY2(QRegularExpression(
                     "interpreter template no \\(missing: [^)]*python3-lizard-no-such-module\\)")
                     .match(QString::fromUtf8(server.log()))
                     .hasMatch(),
                 server.log().constData());
        QVERIFY(!server.log().contains("python3-bad"));
        const QJsonArray projects = lizard::test::jsonArray(server.request("GET", "/api/projects"));
        QVERIFY(!projects.isEmpty());
        const QJsonObject body{{"projectId", projects.first().toObject().value("id")},
                               {"template", "interpreter"}};
        const auto r = server.request("POST", "/api/sandboxes", lizard::test::toJson(body));
        QVERIFY2(lizard::test::isError(r, 503, "TEMPLATE_UNAVAILABLE"),
                 qPrintable(lizard::test::describe(r)));
        const QString message = lizard::test::jsonObject(r).value("message").toString();
        QVERIFY2(message.startsWith("the interpreter template needs these host packages: ") &&
                     message.contains("python3-lizard-no-such-module"),
                 qPrintable(message));
        QCOMPARE(lizard::test::jsonArray(server.request("GET", "/api/sandboxes")).size(), 0);
    }

    void badArguments_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("port not a number") << QStringList{"--port", "abc"};
        QTest::newRow("port out of range") << QStringList{"--port", "70000"};
        QTest::newRow("port missing") << QStringList{"--port"};
        QTest::newRow("unknown option") << QStringList{"--frobnicate"};
        QTest::newRow("max-running zero") << QStringList{"--max-running", "0"};
    }

    void badArguments()
    {
        QFETCH(QStringList, args);
        QProcess p;
        p.start(LocalServer::serverBinary(), args);
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(p.readAllStandardError().contains("usage:"));
    }
};

QTEST_GUILESS_MAIN(TestServerStartup)
#include "tst_server_startup.moc"
