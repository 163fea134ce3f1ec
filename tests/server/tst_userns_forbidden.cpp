// lizard-local on a host that forbids user namespaces: it starts, refuses to create sandboxes
// with an error that names the cause and the fix, and never runs code unsandboxed.
// The host is simulated: lizard-local runs inside a user namespace whose
// user.max_user_namespaces is 0, so its own unshare(CLONE_NEWUSER) fails as on such a host.
#include "support/proctree.h"
#include "support_http.h"

#include <QDir>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <unistd.h>

using lizard::test::describe;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;

// Command names (comm) of every descendant of `root`.
static QStringList descendantNames(qint64 root)
{
    QStringList out;
    for (const lizard::test::ProcEntry& p : lizard::test::descendants(root))
        out << p.name;
    return out;
}

class TestUsernsForbidden : public QObject
{
    Q_OBJECT

    QTemporaryDir m_wrapDir{QDir::tempPath() + "/lizard-nouserns-XXXXXX"};
    std::unique_ptr<LocalServer> m_server;
    QString m_marker;

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable("unshare").isEmpty())
            QSKIP("unshare (util-linux) is not installed");
        // Can we make the simulated host at all (a user namespace with the limit set to 0)?
        QProcess probe;
        probe.start("unshare", {"--user", "--map-root-user", "sh", "-c",
                                "echo 0 > /proc/sys/user/max_user_namespaces"});
        probe.waitForFinished(10000);
        if (probe.exitCode() != 0)
            QSKIP("this host cannot simulate a user-namespace ban (no nested user namespaces)");

        const QString wrapper = m_wrapDir.path() + "/lizard-local";
        QFile f(wrapper);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\n"
                "exec unshare --user --map-root-user sh -c "
                "'echo 0 > /proc/sys/user/max_user_namespaces && exec \"$0\" \"$@\"' ");
        f.write(LocalServer::serverBinary().toUtf8());
        f.write(" \"$@\"\n");
        f.close();
        QFile::setPermissions(wrapper, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                           QFile::ReadGroup | QFile::ExeGroup | QFile::ReadOther |
                                           QFile::ExeOther);
        QFile::setPermissions(m_wrapDir.path(), QFile::ReadOwner | QFile::WriteOwner |
                                                    QFile::ExeOwner | QFile::ReadOther |
                                                    QFile::ExeOther);
        qputenv("LIZARD_LOCAL_BIN", wrapper.toUtf8());
        m_server = std::make_unique<LocalServer>();
        QVERIFY2(m_server->start(), qPrintable(m_server->errorString()));
        qunsetenv("LIZARD_LOCAL_BIN");
    }

    void serverStillAnswers()
    {
        const auto r = m_server->request("GET", "/api/projects");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        QCOMPARE(jsonArray(r).size(), 1);
    }

    void createIsRefusedWithCauseAndFix()
    {
        m_marker = QDir::tempPath() + "/lizard-nouserns-marker-" + QString::number(getpid());
        QFile::remove(m_marker);
        const QByteArray body =
            "{\"template\":\"base\",\"envs\":{\"X\":\"1\"},\"metadata\":{\"t\":\"nouserns\"}}";
        const auto r = m_server->request("POST", "/api/sandboxes", body);
        QCOMPARE(r.status, 503);
        const QJsonObject err = jsonObject(r);
        QCOMPARE(err.value("code").toString(), QStringLiteral("USERNS_DISABLED"));
        const QString message = err.value("message").toString();
        QVERIFY2(message.contains("user namespace"), qPrintable(message));
        QVERIFY2(message.contains("user.max_user_namespaces"), qPrintable(message)); // the fix
        QVERIFY2(message.contains("sysctl"), qPrintable(message));
    }

    void nothingRanUnsandboxed()
    {
        // No sandbox exists, so there is nothing to exec in; and no agent was left behind.
        QCOMPARE(jsonArray(m_server->request("GET", "/api/sandboxes")).size(), 0);
        const auto exec =
            m_server->request("POST", "/api/sandboxes/sb_doesnotexist0000/exec",
                              QString("{\"cmd\":\"touch %1\"}").arg(m_marker).toUtf8());
        QCOMPARE(exec.status, 404);
        QVERIFY(!QFile::exists(m_marker));
        const QStringList names = descendantNames(m_server->pid());
        QVERIFY2(!names.contains("lizard-agent"), qPrintable(names.join(", ")));
        QDir sandboxes(m_server->dataDir() + "/sandboxes");
        QVERIFY(!sandboxes.exists() ||
                sandboxes.entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());
    }

    void logNamesTheCause()
    {
        QVERIFY2(m_server->log().contains("user namespaces are not available"),
                 m_server->log().constData());
    }
};

QTEST_GUILESS_MAIN(TestUsernsForbidden)
#include "tst_userns_forbidden.moc"
