// An SSH host end to end: a real sshd in a network namespace of the test's own (support/sshhost.h)
// and the real lizard-local there, which the app starts over SSH. The first connection asks about
// the unknown host key and records it only on yes; then a sandbox, a notebook cell with a chart, a
// file downloaded, a preview port and a desktop's viewer pages, all through the tunnel; ssh killed
// mid-stream ends the stream with a typed error and the tunnel comes back by itself; a second
// connection finds the running server; a login the host refuses and a changed host key are refused
// with their reason.
#include "app/connectioncontroller.h"
#include "app/keystore.h"
#include "app/ssh/sshtunnel.h"
#include "client/coderun/codeinterpreter.h"
#include "models/previewaddress.h"
#include "support/apiwait.h"
#include "support/sandboxpolicy.h"
#include "support/sshhost.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>
#include <signal.h>

using lizard::app::ConnectionController;
using lizard::app::KeyStore;
using lizard::models::ConnectionProfile;
using namespace lizard;
using namespace lizard::test;

namespace {

QByteArray fetch(const QString& url, const QByteArray& token, int* status)
{
    QProcess curl;
    curl.start("curl", {"-sS", "--max-time", "20", "-o", "-", "-w", "\n%{http_code}", "-H",
                        "X-Lizard-Access-Token: " + QString::fromUtf8(token), url});
    curl.waitForFinished(30000);
    QByteArray out = curl.readAllStandardOutput();
    const qsizetype nl = out.lastIndexOf('\n');
    *status = out.mid(nl + 1).toInt();
    return out.left(nl);
}

} // namespace

class TestSshTunnel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void unknownHostKeyIsAskedAndRecordedOnYes();
    void sandboxNotebookFileAndPreviewThroughTheTunnel();
    void droppedConnectionEndsTheStreamAndComesBack();
    void screenPagesThroughTheTunnel();
    void aSecondConnectionFindsTheRunningServer();
    void refusedLoginSaysSo();
    void changedHostKeyIsRefused();
    void cleanupTestCase();

private:
    ConnectionProfile profile() const
    {
        ConnectionProfile p;
        p.id = "ssh-1";
        p.name = "Test host";
        p.kind = ConnectionProfile::Kind::Ssh;
        p.sshDestination = m_host.destination();
        p.sshPort = m_host.port();
        return p;
    }

    SshHost m_host;
    QTemporaryDir m_home;
    std::unique_ptr<KeyStore> m_keys;
    std::unique_ptr<ConnectionController> m_controller;
    client::LizardApi* m_api = nullptr;
    QString m_projectId;
    QString m_sandboxId;
    QString m_previewUrl;
    QByteArray m_previewToken;
};

void TestSshTunnel::initTestCase()
{
    // Without sshd this fails: `make test` installs openssh-server.
    QVERIFY2(QFile::exists("/usr/sbin/sshd"),
             "/usr/sbin/sshd is missing: install openssh-server (scripts/install-deps.sh)");
    if (::geteuid() != 0)
        QSKIP("the SSH host is a network namespace, which needs root");
    QString why;
    QVERIFY2(m_host.start(&why), qPrintable(why));
    // The app's ssh reads this configuration instead of ~/.ssh (ssh takes ~ from the password
    // database, so HOME alone would not keep it away from the user's files).
    qputenv("LIZARD_TEST_SSH_CONFIG", m_host.clientConfig().toUtf8());
    qputenv("HOME", m_home.path().toUtf8());
    m_keys = std::make_unique<KeyStore>(m_home.filePath("keys.json"), false);
    m_controller = std::make_unique<ConnectionController>(m_keys.get(), m_home.filePath("local"));
}

void TestSshTunnel::unknownHostKeyIsAskedAndRecordedOnYes()
{
    QSignalSpy question(m_controller.get(), &ConnectionController::hostKeyQuestion);
    QSignalSpy connected(m_controller.get(), &ConnectionController::connected);
    QSignalSpy failed(m_controller.get(), &ConnectionController::failed);

    // No: nothing is recorded and nothing connects.
    m_controller->connectTo(profile());
    QTRY_VERIFY_WITH_TIMEOUT(question.count() + failed.count() > 0, 30000);
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
    QCOMPARE(question.at(0).at(0).toString(), m_host.destination() + ":2222");
    const QStringList fingerprints = question.at(0).at(1).toStringList();
    QVERIFY2(fingerprints.join('\n').contains(m_host.hostKeyFingerprint()),
             qPrintable(fingerprints.join('\n') + " lacks " + m_host.hostKeyFingerprint()));
    QVERIFY(QFileInfo(m_host.knownHostsFile()).size() == 0);
    m_controller->answerHostKey(false);
    QTRY_COMPARE(failed.count(), 1);
    QVERIFY(failed.at(0).at(0).toString().contains("not accepted"));
    QVERIFY(QFileInfo(m_host.knownHostsFile()).size() == 0);

    // Yes: the key is recorded, lizard-local is started on the host and the client uses it.
    question.clear();
    failed.clear();
    m_controller->connectTo(profile());
    QTRY_VERIFY_WITH_TIMEOUT(question.count() + failed.count() > 0, 30000);
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
    m_controller->answerHostKey(true);
    QTRY_VERIFY_WITH_TIMEOUT(connected.count() + failed.count() > 0, 120000);
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString() + "\nsshd:\n" +
                                          m_host.sshdLog().right(2000)));
    QFile known(m_host.knownHostsFile());
    QVERIFY(known.open(QIODevice::ReadOnly));
    QVERIFY(known.readAll().contains("ssh-ed25519"));
    m_api = connected.at(0).at(0).value<client::LizardApi*>();
    QVERIFY(m_api != nullptr);
    const QString label = connected.at(0).at(1).toString();
    QVERIFY2(label.startsWith("SSH " + m_host.destination()), qPrintable(label));
    QVERIFY2(label.contains("(started)"), qPrintable(label));
    QVERIFY(m_host.remoteServerPid() > 0);
    // The client speaks to a loopback port here, forwarded; the key never touched this disk.
    QVERIFY(m_api->endpoint().baseUrl.startsWith("http://127.0.0.1:"));
    QFile remoteKey(m_host.remoteDataDir() + "/api-key");
    QVERIFY(remoteKey.open(QIODevice::ReadOnly));
    QCOMPARE(m_api->endpoint().apiKey, QString::fromUtf8(remoteKey.readAll()).trimmed());
    QVERIFY(!QFile::exists(m_home.filePath("keys.json")));
}

void TestSshTunnel::sandboxNotebookFileAndPreviewThroughTheTunnel()
{
    QVERIFY(m_api);
    ApiWaiter<QList<client::Project>> projects;
    m_api->listProjects(nullptr, projects.done());
    QVERIFY2(projects.wait() && projects.ok(), projects.why());
    client::CreateSandboxRequest req;
    m_projectId = projects.value().first().id;
    req.projectId = m_projectId;
    req.templateName = "interpreter";
    req.timeoutMs = 900000;
    QString why;
    m_sandboxId = startSandbox(*m_api, req, &why);
    LIZ_REQUIRE_SANDBOX(m_sandboxId, why);

    // A notebook cell with a chart.
    client::CodeInterpreter interp(m_api, m_sandboxId);
    client::CodeRun* run = interp.runCode("import matplotlib\nmatplotlib.use('Agg')\n"
                                          "import matplotlib.pyplot as plt\n%matplotlib inline\n"
                                          "plt.plot([1, 3, 2])\nplt.show()");
    QVERIFY(waitUntil([run] { return run->isFinished(); }, 180000));
    QVERIFY2(!run->hasFailed(),
             qPrintable(run->hasFailed() ? run->failure()->toDisplayString() : QString()));
    const auto charts = run->execution().resultsWith("image/png");
    QVERIFY(!charts.isEmpty());
    QVERIFY(QByteArray::fromBase64(charts.first().data().toLatin1()).startsWith("\x89PNG"));

    // A file, downloaded through the tunnel byte for byte.
    QByteArray content;
    for (int i = 0; i < 20000; ++i)
        content += QByteArray::number(i) + " lizard over ssh\n";
    ApiWaiter<client::Unit> written;
    m_api->writeFile(m_sandboxId, "/tmp/data.txt", content, nullptr, written.done());
    QVERIFY2(written.wait() && written.ok(), written.why());
    const QString local = m_home.filePath("data.txt");
    ApiWaiter<qint64> downloaded;
    m_api->downloadFile(m_sandboxId, "/tmp/data.txt", local, nullptr, {}, downloaded.done());
    QVERIFY2(downloaded.wait() && downloaded.ok(), downloaded.why());
    QFile got(local);
    QVERIFY(got.open(QIODevice::ReadOnly));
    QCOMPARE(got.readAll(), content);

    // A preview: the port proxy's address answers here only through the forward (the proxy
    // listens in the host's namespace). The web server runs in a session of its own, so that it
    // outlives this exec and the connection drop below.
    ApiWaiter<client::ExecResult> started;
    m_api->exec(m_sandboxId,
                "cd /tmp && (setsid python3 -m http.server 8000 >/dev/null 2>&1 </dev/null &)", {},
                nullptr, started.done());
    QVERIFY2(started.wait() && started.ok(), started.why());
    QVERIFY(waitUntil(
        [&] {
            ApiWaiter<client::ExecResult> probe;
            m_api->exec(m_sandboxId,
                        "python3 -c \"import urllib.request as u; "
                        "u.urlopen('http://127.0.0.1:8000/')\"",
                        {}, nullptr, probe.done());
            return probe.wait() && probe.ok() && probe.value().exitCode == 0;
        },
        30000));
    ApiWaiter<client::ExposedPort> exposed;
    m_api->exposePort(m_sandboxId, 8000, nullptr, exposed.done());
    QVERIFY2(exposed.wait() && exposed.ok(), exposed.why());
    const QUrl url(exposed.value().url);
    QVERIFY2(url.host().startsWith("127.") && url.host() != "127.0.0.1", qPrintable(url.host()));
    m_previewUrl = url.adjusted(QUrl::RemoveQuery).toString();
    m_previewToken = exposed.value().accessToken.toUtf8();
    int status = 0;
    const QByteArray page = fetch(m_previewUrl + "data.txt", m_previewToken, &status);
    QCOMPARE(status, 200);
    QCOMPARE(page, content);
}

void TestSshTunnel::droppedConnectionEndsTheStreamAndComesBack()
{
    QVERIFY(m_api);
    if (m_sandboxId.isEmpty())
        QSKIP("no sandbox: this host cannot make them (said above)");
    QSignalSpy dropped(m_controller.get(), &ConnectionController::tunnelDropped);
    QSignalSpy restored(m_controller.get(), &ConnectionController::tunnelRestored);
    QSignalSpy reconnected(m_controller.get(), &ConnectionController::connected);
    std::unique_ptr<client::ExecStream> stream(m_api->execStream(
        m_sandboxId, "for i in $(seq 1 600); do echo line $i; sleep 0.1; done", {}));
    QSignalSpy output(stream.get(), &client::ExecStream::output);
    QSignalSpy streamFailed(stream.get(), &client::ExecStream::failed);
    QSignalSpy exited(stream.get(), &client::ExecStream::exited);
    QTRY_VERIFY_WITH_TIMEOUT(output.count() >= 3, 30000);

    // The network goes: the ssh process ends.
    const qint64 server = m_host.remoteServerPid();
    const qint64 ssh = m_controller->tunnel()->masterPid();
    QVERIFY(ssh > 0);
    QVERIFY(::kill(pid_t(ssh), SIGKILL) == 0);
    QTRY_VERIFY_WITH_TIMEOUT(streamFailed.count() == 1, 15000);
    QCOMPARE(exited.count(), 0);
    const auto error = streamFailed.at(0).at(0).value<client::ApiError>();
    QCOMPARE(error.kind, client::ApiError::Kind::Network);
    QTRY_VERIFY_WITH_TIMEOUT(dropped.count() >= 1, 10000);
    QVERIFY2(dropped.at(0).at(0).toString().contains("SSH connection to " + m_host.destination()),
             qPrintable(dropped.at(0).at(0).toString()));

    // Back by itself on the same local port: the same client works again, and so does the preview.
    QTRY_VERIFY_WITH_TIMEOUT(restored.count() == 1, 60000);
    QCOMPARE(reconnected.count(), 0);
    QVERIFY(m_controller->tunnel()->masterPid() != ssh);
    QCOMPARE(m_host.remoteServerPid(), server); // the same lizard-local, found again
    ApiWaiter<client::SandboxInfo> info;
    m_api->getSandbox(m_sandboxId, nullptr, info.done());
    QVERIFY2(info.wait() && info.ok(), info.why());
    int status = 0;
    fetch(m_previewUrl + "data.txt", m_previewToken, &status);
    QCOMPARE(status, 200);
}

// The Screen tab's two viewer pages, forwarded before startDesktop answers.
void TestSshTunnel::screenPagesThroughTheTunnel()
{
    QVERIFY(m_api);
    client::CreateSandboxRequest req;
    req.projectId = m_projectId;
    req.templateName = "desktop";
    req.timeoutMs = 600000;
    QString why;
    const QString id = startSandbox(*m_api, req, &why);
    QVERIFY2(!id.isEmpty(), qPrintable(why)); // a host without the desktop's packages fails here
    ApiWaiter<client::DesktopInfo> started;
    m_api->startDesktop(id, QSize(1024, 768), nullptr, started.done());
    const bool ok = started.wait(120000) && started.ok();
    QStringList failures; // checked after the sandbox is gone
    for (const QString& page :
         ok ? QStringList{started.value().url, started.value().viewOnlyUrl} : QStringList()) {
        const QUrl url(page);
        const QByteArray token =
            QUrlQuery(url).queryItemValue("lizard_token", QUrl::FullyDecoded).toUtf8();
        int status = 0;
        const QByteArray html =
            fetch(models::PreviewAddress::withoutToken(url).toString(), token, &status);
        if (status != 200 || !html.contains("noVNC"))
            failures << QStringLiteral("%1: HTTP %2").arg(page).arg(status);
    }
    ApiWaiter<client::Unit> killed;
    m_api->killSandbox(id, nullptr, killed.done());
    QVERIFY(killed.wait());
    QVERIFY2(ok, started.why());
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join('\n')));
}

// Another window's connection to the same host uses the lizard-local that runs there.
void TestSshTunnel::aSecondConnectionFindsTheRunningServer()
{
    const qint64 server = m_host.remoteServerPid();
    QVERIFY(server > 0);
    ConnectionController other(m_keys.get(), m_home.filePath("local"));
    QSignalSpy connected(&other, &ConnectionController::connected);
    QSignalSpy failed(&other, &ConnectionController::failed);
    other.connectTo(profile());
    QTRY_VERIFY_WITH_TIMEOUT(connected.count() + failed.count() > 0, 60000);
    QVERIFY2(failed.isEmpty(), qPrintable(failed.value(0).value(0).toString()));
    const QString label = connected.at(0).at(1).toString();
    QVERIFY2(label.contains("(running)"), qPrintable(label));
    QCOMPARE(m_host.remoteServerPid(), server);
    // Its own tunnel, on its own local port.
    auto* api = connected.at(0).at(0).value<client::LizardApi*>();
    QVERIFY(api->endpoint().baseUrl != m_api->endpoint().baseUrl);
    ApiWaiter<QList<client::Project>> projects;
    api->listProjects(nullptr, projects.done());
    QVERIFY2(projects.wait() && projects.ok(), projects.why());
    QCOMPARE(projects.value().first().id, m_projectId);
}

// A user the host does not know: ssh's "Permission denied", said with what to do, and no retry.
void TestSshTunnel::refusedLoginSaysSo()
{
    ConnectionController other(m_keys.get(), m_home.filePath("local"));
    QSignalSpy failed(&other, &ConnectionController::failed);
    QSignalSpy question(&other, &ConnectionController::hostKeyQuestion);
    ConnectionProfile p = profile();
    p.sshDestination = "nosuchuser@" + m_host.address();
    other.connectTo(p);
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() == 1, 30000);
    const QString message = failed.at(0).at(0).toString();
    QVERIFY2(message.contains("refused the login") && message.contains("Permission denied"),
             qPrintable(message));
    QCOMPARE(question.count(), 0); // the key of this host:port is known already
    QVERIFY(!other.tunnel()->isUp());
    QTest::qWait(1500);
    QCOMPARE(failed.count(), 1);
}

void TestSshTunnel::changedHostKeyIsRefused()
{
    QVERIFY(m_api);
    if (!m_sandboxId.isEmpty()) {
        ApiWaiter<client::Unit> killed;
        m_api->killSandbox(m_sandboxId, nullptr, killed.done());
        QVERIFY2(killed.wait() && killed.ok(), killed.why());
        m_sandboxId.clear();
    }
    QFile known(m_host.knownHostsFile());
    QVERIFY(known.open(QIODevice::ReadOnly));
    const QByteArray before = known.readAll();
    known.close();

    QString why;
    QVERIFY2(m_host.replaceHostKey(&why), qPrintable(why));
    QSignalSpy question(m_controller.get(), &ConnectionController::hostKeyQuestion);
    QSignalSpy failed(m_controller.get(), &ConnectionController::failed);
    m_controller->connectTo(profile());
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() == 1, 30000);
    QVERIFY2(failed.at(0).at(0).toString().contains("has CHANGED"),
             qPrintable(failed.at(0).at(0).toString()));
    QCOMPARE(question.count(), 0);
    QVERIFY(known.open(QIODevice::ReadOnly));
    QCOMPARE(known.readAll(), before);
    m_api = nullptr;
}

void TestSshTunnel::cleanupTestCase()
{
    m_controller.reset(); // ends ssh
    m_host.stop();        // the host's lizard-local (its sandboxes first), sshd, the namespace
}

QTEST_GUILESS_MAIN(TestSshTunnel)
#include "tst_sshtunnel.moc"
