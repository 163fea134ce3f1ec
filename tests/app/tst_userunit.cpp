// The systemd user unit (packaging/lizard-local.service): lizard-local started with the unit's
// command line, that is with its own defaults for the data directory, is found by the app's
// connector at the app's default data directory, without a second server being started.
#include "app/localserverconnector.h"
#include "support/localserver.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <pwd.h>
#include <unistd.h>

using lizard::app::LocalServerConnector;
using lizard::app::LocalServerInfo;
using lizard::test::LocalServer;

namespace {

QMap<QString, QString> unitEntries()
{
    QFile f(QStringLiteral(LIZARD_SOURCE_DIR "/packaging/lizard-local.service"));
    QMap<QString, QString> entries;
    if (!f.open(QIODevice::ReadOnly))
        return entries;
    for (const QString& line : QString::fromUtf8(f.readAll()).split('\n')) {
        const qsizetype eq = line.indexOf('=');
        if (!line.startsWith('#') && eq > 0)
            entries.insert(line.left(eq), line.mid(eq + 1));
    }
    return entries;
}

} // namespace

class TestUserUnit : public QObject
{
    Q_OBJECT
private slots:
    void unitRunsTheInstalledServerWithItsDefaults()
    {
        const auto unit = unitEntries();
        QVERIFY2(!unit.isEmpty(), "packaging/lizard-local.service is missing");
        // No --data-dir and no --port: the server's defaults are the app's defaults.
        QCOMPARE(unit.value("ExecStart"), QString("/usr/bin/lizard-local"));
        QCOMPARE(unit.value("WantedBy"), QString("default.target"));
        QCOMPARE(unit.value("KillMode"),
                 QString("process")); // sandboxes outlive a stop, as documented
    }

    void appFindsTheServerTheUnitStarted()
    {
        const QString user = qEnvironmentVariable("LIZARD_TEST_SERVER_USER");
        QTemporaryDir home(QDir::tempPath() + "/lizard-unit-XXXXXX");
        const QString xdg = home.path() + "/share";
        QVERIFY(QDir().mkpath(xdg));
        qputenv("XDG_DATA_HOME", xdg.toLocal8Bit()); // QStandardPaths reads it on every call
        const QString dataDir = LocalServerConnector::defaultDataDir();
        QCOMPARE(dataDir, xdg + "/lizard-local");

        // The unit's ExecStart with the binary under test; --port 0 only because 7411 may be taken.
        const QStringList args =
            unitEntries().value("ExecStart").split(' ').mid(1) + QStringList{"--port", "0"};
        QProcess server;
        server.setProcessChannelMode(QProcess::MergedChannels);
        if (user.isEmpty()) {
            auto env = QProcessEnvironment::systemEnvironment();
            env.insert("XDG_DATA_HOME", xdg);
            server.setProcessEnvironment(env);
            server.start(LocalServer::serverBinary(), args);
        } else {
            const passwd* pw = getpwnam(user.toLocal8Bit().constData());
            QVERIFY2(pw != nullptr, qPrintable("no such user: " + user));
            for (const QString& d : {home.path(), xdg})
                QCOMPARE(::chown(d.toLocal8Bit().constData(), pw->pw_uid, pw->pw_gid), 0);
            server.start("runuser",
                         QStringList{"-u", user, "--", "env", QString("HOME=%1").arg(pw->pw_dir),
                                     "XDG_DATA_HOME=" + xdg, LocalServer::serverBinary()} +
                             args);
        }
        QVERIFY(server.waitForStarted(5000));
        const QString info = dataDir + "/server.json";
        QTRY_VERIFY2_WITH_TIMEOUT(QFile::exists(info) && QFile(info).size() > 0,
                                  server.readAll().constData(),
                                  60000); // the first start builds templates

        LocalServerConnector connector(dataDir);
        connector.setBinary("/nonexistent/lizard-local"); // it must find the running one
        QSignalSpy ready(&connector, &LocalServerConnector::ready);
        QSignalSpy failed(&connector, &LocalServerConnector::failed);
        connector.start();
        QTRY_VERIFY_WITH_TIMEOUT(ready.count() + failed.count() == 1, 15000);
        QVERIFY2(failed.isEmpty(),
                 qPrintable(failed.isEmpty() ? QString() : failed.at(0).at(0).toString()));
        const auto found = ready.at(0).at(0).value<LocalServerInfo>();
        QVERIFY(!found.startedByUs);
        QVERIFY(found.url.startsWith("http://127.0.0.1:"));
        QVERIFY(found.apiKey.startsWith("liz_"));

        // systemctl --user stop sends SIGTERM: a clean stop removes server.json.
        server.terminate();
        QVERIFY(server.waitForFinished(15000));
        if (user.isEmpty())
            QCOMPARE(server.exitCode(), 0);
        QVERIFY2(!QFile::exists(info), "server.json left behind after SIGTERM");
        qunsetenv("XDG_DATA_HOME");
    }
};

QTEST_GUILESS_MAIN(TestUserUnit)
#include "tst_userunit.moc"
