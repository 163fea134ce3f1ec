// LocalServerConnector: finds a running lizard-local through server.json, or starts one
// detached; failures say what happened.
#include "app/localserverconnector.h"
#include "support/localserver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <signal.h>

using lizard::app::LocalServerConnector;
using lizard::app::LocalServerInfo;
using lizard::test::LocalServer;

namespace {
bool alive(qint64 pid)
{
    return pid > 0 && ::kill(pid_t(pid), 0) == 0;
}
} // namespace

class TestLocalServerConnector : public QObject
{
    Q_OBJECT
private slots:
    void findsRunningServer()
    {
        LocalServer server;
        QVERIFY2(server.start(), qPrintable(server.errorString()));
        QVERIFY2(QFile::exists(server.dataDir() + "/server.json"),
                 "lizard-local wrote no server.json");
        LocalServerConnector connector(server.dataDir());
        connector.setBinary("/nonexistent/lizard-local"); // must not be needed
        QSignalSpy ready(&connector, &LocalServerConnector::ready);
        QSignalSpy failed(&connector, &LocalServerConnector::failed);
        connector.start();
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() + failed.count() == 1, 15000);
        QVERIFY2(failed.isEmpty(),
                 qPrintable(failed.isEmpty() ? QString() : failed.at(0).at(0).toString()));
        const auto info = ready.at(0).at(0).value<LocalServerInfo>();
        QCOMPARE(info.url, server.url());
        QCOMPARE(info.apiKey, server.apiKey());
        QVERIFY(!info.startedByUs);
    }

    void startsOneDetachedWhenNoneRuns()
    {
        QTemporaryDir tmp;
        const QString dataDir = tmp.filePath("data");
        LocalServerConnector connector(dataDir);
        connector.setBinary(LocalServer::serverBinary());
        connector.setLogPath(tmp.filePath("lizard-local.log"));
        connector.setExtraArgs({"--port", "0"});
        QSignalSpy ready(&connector, &LocalServerConnector::ready);
        QSignalSpy failed(&connector, &LocalServerConnector::failed);
        connector.start();
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() + failed.count() == 1, 90000);
        QVERIFY2(failed.isEmpty(),
                 qPrintable(failed.isEmpty() ? QString() : failed.at(0).at(0).toString()));
        const auto info = ready.at(0).at(0).value<LocalServerInfo>();
        QVERIFY(info.startedByUs);
        QVERIFY(info.url.startsWith("http://127.0.0.1:"));
        QVERIFY(info.apiKey.startsWith("liz_"));
        QVERIFY(alive(info.pid));
        QFileInfo dirInfo(dataDir);
        QCOMPARE(dirInfo.permissions() & (QFile::ReadOther | QFile::ReadGroup),
                 QFileDevice::Permissions());

        // A second connector finds the server the first one started instead of starting another.
        LocalServerConnector second(dataDir);
        second.setBinary("/nonexistent/lizard-local");
        second.setLogPath(tmp.filePath("lizard-local.log"));
        QSignalSpy ready2(&second, &LocalServerConnector::ready);
        second.start();
        QTRY_COMPARE_WITH_TIMEOUT(ready2.count(), 1, 15000);
        QCOMPARE(ready2.at(0).at(0).value<LocalServerInfo>().url, info.url);
        QVERIFY(!ready2.at(0).at(0).value<LocalServerInfo>().startedByUs);

        ::kill(pid_t(info.pid), SIGTERM);
        QTRY_VERIFY_WITH_TIMEOUT(!alive(info.pid), 15000);
    }

    void missingBinaryIsExplained()
    {
        QTemporaryDir tmp;
        LocalServerConnector connector(tmp.filePath("data"));
        connector.setBinary(QString());
        QSignalSpy failed(&connector, &LocalServerConnector::failed);
        connector.start();
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.at(0).at(0).toString().contains("not found"));
    }

    void serverThatDiesAtStartIsExplained()
    {
        QTemporaryDir tmp;
        QFile script(tmp.filePath("fake-server.sh"));
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("#!/bin/sh\necho 'error: port 7411 is in use' >&2\nexit 3\n");
        script.close();
        script.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        LocalServerConnector connector(tmp.filePath("data"));
        connector.setBinary(script.fileName());
        connector.setLogPath(tmp.filePath("log"));
        QSignalSpy failed(&connector, &LocalServerConnector::failed);
        connector.start();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains("stopped during start-up") &&
                     message.contains("port 7411 is in use"),
                 qPrintable(message));
    }

    void staleServerJsonIsIgnored()
    {
        QTemporaryDir tmp;
        const QString dataDir = tmp.filePath("data");
        QDir().mkpath(dataDir);
        QFile json(dataDir + "/server.json");
        QVERIFY(json.open(QIODevice::WriteOnly));
        json.write("{\"url\":\"http://127.0.0.1:1\",\"port\":1,\"pid\":999999,\"keyFile\":\"/"
                   "nonexistent\"}");
        json.close();
        LocalServerConnector connector(dataDir);
        connector.setBinary(QString()); // so it has to report instead of starting
        QSignalSpy failed(&connector, &LocalServerConnector::failed);
        QSignalSpy ready(&connector, &LocalServerConnector::ready);
        connector.start();
        QTRY_COMPARE(failed.count(), 1);
        QCOMPARE(ready.count(), 0);
    }
};

QTEST_GUILESS_MAIN(TestLocalServerConnector)
#include "tst_localserverconnector.moc"
