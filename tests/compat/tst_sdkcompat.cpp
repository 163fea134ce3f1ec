// Runs each SDK scenario (tests/compat/scenarios/*.mjs) with node against one real lizard-local.
// A scenario passes when it exits 0; on failure its whole output is shown.

#include "support/localserver.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TestSdkCompat : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void scenario_data();
    void scenario();
    void scenariosAreAllListed();
    void guideQuickstart();
    void cleanupTestCase();

private:
    static QString compatDir() { return QStringLiteral(LIZARD_COMPAT_DIR); }
    static QStringList scenarioNames();

    lizard::test::LocalServer m_server;
    // Warm pools are off in m_server (as in every suite); the pools and kernels scenarios get a
    // server of their own with them on, started when the first of them runs.
    lizard::test::LocalServer m_poolServer;
    QString m_node;
};

QStringList TestSdkCompat::scenarioNames()
{
    return {"create_info_list",
            "exec",
            "stream_processes",
            "fs",
            "timeout_kill",
            "errors",
            "expose",
            "pause",
            "paused-exec",
            "snapshot",
            "fork",
            "volume",
            "api_keys",
            "templates",
            "watch",
            "allowed_hosts",
            "logs",
            "activity",
            "schedules",
            "apt",
            "desktop",
            "pools",
            "kernels",
            "runner_fastpath",
            "recipe_templates"};
}

void TestSdkCompat::initTestCase()
{
    m_node = QStandardPaths::findExecutable("node");
    if (m_node.isEmpty())
        QSKIP("node is not installed (scripts/install-deps.sh installs it)");
    if (!QFileInfo::exists(compatDir() + "/node_modules/@lizard-build/sdk/package.json"))
        QSKIP("the official SDK is not installed: run `npm ci` in tests/compat "
              "(scripts/run-tests.sh does)");
    QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
}

void TestSdkCompat::scenario_data()
{
    QTest::addColumn<QString>("script");
    for (const QString& name : scenarioNames())
        QTest::newRow(qPrintable(name)) << compatDir() + "/scenarios/" + name + ".mjs";
}

void TestSdkCompat::scenario()
{
    QFETCH(QString, script);
    QVERIFY2(QFileInfo::exists(script), qPrintable("missing scenario " + script));

    lizard::test::LocalServer* server = &m_server;
    if (QFileInfo(script).baseName() == "pools" || QFileInfo(script).baseName() == "kernels") {
        server = &m_poolServer;
        if (server->url().isEmpty())
            QVERIFY2(server->start({"--pool-max", "4", "--pool-base", "1", "--pool-interpreter",
                                    "1", "--pool-min-free-mb", "0"}),
                     qPrintable(server->errorString()));
    }
    QProcess node;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LIZARD_API_URL", server->url());
    env.insert("LIZARD_API_KEY", server->apiKey());
    env.insert("NODE_NO_WARNINGS", "1");
    node.setProcessEnvironment(env);
    node.setWorkingDirectory(compatDir());
    node.setProcessChannelMode(QProcess::MergedChannels);
    node.start(m_node, {script});
    QVERIFY2(node.waitForStarted(10000), qPrintable(node.errorString()));
    // The scenarios have their own watchdog (150 s); this is the backstop.
    const bool finished = node.waitForFinished(200000);
    if (!finished) {
        node.kill();
        node.waitForFinished(5000);
    }
    const QString output = QString::fromUtf8(node.readAll());
    const bool passed =
        finished && node.exitStatus() == QProcess::NormalExit && node.exitCode() == 0;
    if (!passed) {
        // QTest shortens failure messages, so the whole output goes to the log first.
        QTest::qWait(100); // let the server's QProcess read what it printed meanwhile
        qInfo().noquote() << "---- output of" << QFileInfo(script).fileName() << "----\n"
                          << output << "\n---- lizard-local log (tail) ----\n"
                          << QString::fromUtf8(server->log().right(6000));
    }
    QVERIFY2(passed, qPrintable(QString("scenario %1 %2; its output is above. Last lines:\n%3")
                                    .arg(QFileInfo(script).fileName(),
                                         finished ? QString("exited with %1").arg(node.exitCode())
                                                  : QString("hung and was killed"),
                                         output.right(600))));
    QVERIFY2(output.contains("PASS "), qPrintable("scenario did not report PASS:\n" + output));
}

void TestSdkCompat::scenariosAreAllListed()
{
    // Every scenario file in the folder has its row; a new script cannot be forgotten.
    const QStringList files = QDir(compatDir() + "/scenarios").entryList({"*.mjs"}, QDir::Files);
    QStringList names;
    for (const QString& f : files)
        if (f != "lib.mjs" && f != "png.mjs") // helpers, not scenarios
            names << QFileInfo(f).completeBaseName();
    names.sort();
    QStringList listed = scenarioNames();
    listed.sort();
    QCOMPARE(names, listed);
}

// The user guide's example (docs/guide/quickstart.mjs) as a reader runs it: saved in a folder of
// its own where `npm install @lizard-build/sdk` put the SDK (here a link to ours), run with
// LIZARD_API_URL and LIZARD_API_KEY pointing at lizard-local.
void TestSdkCompat::guideQuickstart()
{
    const QString example = QStringLiteral(LIZARD_GUIDE_DIR "/quickstart.mjs");
    QTemporaryDir dir;
    QVERIFY(QFile::copy(example, dir.filePath("quickstart.mjs")));
    QVERIFY(QFile::link(compatDir() + "/node_modules", dir.filePath("node_modules")));
    QProcess node;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LIZARD_API_URL", m_server.url());
    env.insert("LIZARD_API_KEY", m_server.apiKey());
    node.setProcessEnvironment(env);
    node.setWorkingDirectory(dir.path());
    node.setProcessChannelMode(QProcess::MergedChannels);
    node.start(m_node, {"quickstart.mjs"});
    QVERIFY2(node.waitForStarted(10000), qPrintable(node.errorString()));
    if (!node.waitForFinished(200000)) {
        node.kill();
        node.waitForFinished(5000);
    }
    const QString output = QString::fromUtf8(node.readAll());
    QVERIFY2(node.exitStatus() == QProcess::NormalExit && node.exitCode() == 0, qPrintable(output));
    // What the guide says it prints.
    QCOMPARE(output, QString("Hello from lizard-local!\nLinux\n\nx * 2 = 42\n"));
}

void TestSdkCompat::cleanupTestCase()
{
    m_server.stop();
    m_poolServer.stop();
}

QTEST_GUILESS_MAIN(TestSdkCompat)
#include "tst_sdkcompat.moc"
