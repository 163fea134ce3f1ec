// Why a host cannot make sandboxes, end to end: lizard-local started as on a host with each
// problem (LIZARD_TEST_HOST_PROBLEM makes its host probe see it) answers a create with 503 and a
// code per cause whose message names the fix, and logs it; `lizard-local doctor` says the same
// and exits 1. On this host as it is, doctor exits 0 and states facts that can be checked
// against the system. The AppArmor profiles the .deb ships grant `userns` and nothing else.
#include "support_http.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <unistd.h>

using lizard::test::describe;
using lizard::test::jsonObject;
using lizard::test::LocalServer;

namespace {

struct DoctorRun
{
    int exitCode = -1;
    QString out;
};

// The ordinary user's pass of CI (LIZARD_TEST_SERVER_USER) runs lizard-local as that user:
// doctor too, so that it reports what that user gets.
QString doctorUser()
{
    return geteuid() == 0 ? qEnvironmentVariable("LIZARD_TEST_SERVER_USER") : QString();
}

DoctorRun runDoctor(const QByteArray& problem = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!problem.isEmpty())
        env.insert(QStringLiteral("LIZARD_TEST_HOST_PROBLEM"), QString::fromLatin1(problem));
    p.setProcessEnvironment(env);
    const QString user = doctorUser();
    if (user.isEmpty())
        p.start(LocalServer::serverBinary(), {QStringLiteral("doctor")});
    else
        p.start(QStringLiteral("runuser"),
                {QStringLiteral("-u"), user, QStringLiteral("--"), QStringLiteral("env"),
                 QStringLiteral("-C"), QStringLiteral("/tmp"), LocalServer::serverBinary(),
                 QStringLiteral("doctor")});
    p.waitForFinished(120000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromUtf8(p.readAllStandardOutput())};
}

QStringList doctorDirs()
{
    return QDir(QDir::tempPath())
        .entryList({QStringLiteral("lizard-doctor-*")}, QDir::Dirs | QDir::NoDotAndDotDot);
}

QString sourceFile(const QString& relative)
{
    return QStringLiteral(LIZARD_SOURCE_DIR "/") + relative;
}

} // namespace

class TestHostProblems : public QObject
{
    Q_OBJECT
private slots:
    void createAnswersTheCause_data();
    void createAnswersTheCause();
    void doctorOnThisHost();
    void doctorNamesTheProblem();
    void appArmorProfilesGrantUsernsOnly();
};

void TestHostProblems::createAnswersTheCause_data()
{
    QTest::addColumn<QByteArray>("problem");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("fix");
    QTest::newRow("disabled") << QByteArray("userns-disabled") << "USERNS_DISABLED"
                              << "sudo sysctl -w user.max_user_namespaces=";
    QTest::newRow("restricted") << QByteArray("userns-restricted") << "USERNS_RESTRICTED"
                                << "install-apparmor-profile.sh";
    QTest::newRow("restricted, profile not loaded")
        << QByteArray("userns-restricted-unloaded") << "USERNS_RESTRICTED"
        << "sudo apparmor_parser -r /etc/apparmor.d/lizard-agent";
}

void TestHostProblems::createAnswersTheCause()
{
    QFETCH(QByteArray, problem);
    QFETCH(QString, code);
    QFETCH(QString, fix);
    qputenv("LIZARD_TEST_HOST_PROBLEM", problem);
    LocalServer server;
    const bool started = server.start();
    qunsetenv("LIZARD_TEST_HOST_PROBLEM");
    QVERIFY2(started, qPrintable(server.errorString()));
    QCOMPARE(server.request("GET", "/api/projects").status, 200); // the API still answers
    const auto r = server.request("POST", "/api/sandboxes", R"({"template":"base"})");
    QVERIFY2(r.status == 503, qPrintable(describe(r)));
    const QJsonObject err = jsonObject(r);
    QCOMPARE(err.value("code").toString(), code);
    const QString message = err.value("message").toString();
    QVERIFY2(message.contains("Fix: ") && message.contains(fix), qPrintable(message));
    // The log line the app reads for its notes and its empty project.
    QVERIFY2(server.log().contains("runtime: sandboxes no (" + message.toUtf8() + ")"),
             server.log().constData());
}

void TestHostProblems::doctorOnThisHost()
{
    const QStringList before = doctorDirs();
    const DoctorRun run = runDoctor();
    QVERIFY2(run.exitCode == 0, qPrintable(run.out));
    QVERIFY2(run.out.contains("[ok] sandboxes"), qPrintable(run.out));
    const QString user = doctorUser();
    const bool asRoot = geteuid() == 0 && user.isEmpty();
    QVERIFY2(run.out.contains(asRoot ? QStringLiteral(", as root") : ", as " + user),
             qPrintable(run.out));
    // Facts of this host: cgroup v1 or v2 as /sys/fs/cgroup is mounted; seccomp as
    // /proc/self/status says; root's disks are images.
    QFile status(QStringLiteral("/proc/self/status"));
    QVERIFY(status.open(QIODevice::ReadOnly));
    const bool seccomp = status.readAll().contains("\nSeccomp:");
    QVERIFY2(run.out.contains(seccomp ? "[ok] seccomp" : "[--] seccomp"), qPrintable(run.out));
    if (run.out.contains("[ok] limits")) {
        const bool v2 = QFile::exists(QStringLiteral("/sys/fs/cgroup/cgroup.controllers"));
        QVERIFY2(run.out.contains(v2 ? "by cgroup v2" : "by cgroup v1"), qPrintable(run.out));
    }
    if (asRoot)
        QVERIFY2(run.out.contains("bounded by an ext4 image"), qPrintable(run.out));
    else // an ordinary user: a quota file system where /dev/fuse is usable, else a watch
        QVERIFY2(run.out.contains(QFileInfo(QStringLiteral("/dev/fuse")).isWritable()
                                      ? "bounded by a FUSE quota"
                                      : "watched, not bounded"),
                 qPrintable(run.out));
    QVERIFY2(run.out.contains("Sandboxes can be made on this computer."), qPrintable(run.out));
    QCOMPARE(doctorDirs(), before); // its own data directory is gone again
}

void TestHostProblems::doctorNamesTheProblem()
{
    const DoctorRun run = runDoctor("userns-restricted");
    QCOMPARE(run.exitCode, 1);
    QVERIFY2(run.out.contains("[--] sandboxes") && run.out.contains("USERNS_RESTRICTED") &&
                 run.out.contains("Fix: sudo "),
             qPrintable(run.out));
    QVERIFY2(run.out.contains("[--] AppArmor") &&
                 run.out.contains("restricts user namespaces; no profile of lizard-desktop"),
             qPrintable(run.out));
    QVERIFY2(run.out.contains("Sandboxes cannot be made on this computer."), qPrintable(run.out));
}

void TestHostProblems::appArmorProfilesGrantUsernsOnly()
{
    // The packaged profile and the one a source build installs: Ubuntu's form, each program
    // unconfined with `userns` as its only rule.
    QFile packaged(sourceFile(QStringLiteral("packaging/apparmor/lizard-agent")));
    QVERIFY(packaged.open(QIODevice::ReadOnly));
    QProcess script;
    script.start(QStringLiteral("bash"),
                 {sourceFile(QStringLiteral("scripts/install-apparmor-profile.sh")),
                  QFileInfo(LocalServer::serverBinary()).absolutePath(),
                  QStringLiteral("--print")});
    QVERIFY(script.waitForFinished(30000));
    QCOMPARE(script.exitCode(), 0);
    const QString bin = QFileInfo(LocalServer::serverBinary()).absolutePath();
    const QList<std::pair<QString, QStringList>> profiles = {
        {QString::fromUtf8(packaged.readAll()),
         {"profile lizard-agent /usr/bin/lizard-agent flags=(unconfined) {",
          "profile lizard-local /usr/bin/lizard-local flags=(unconfined) {",
          "include if exists <local/lizard-agent>", "include if exists <local/lizard-local>"}},
        {QString::fromUtf8(script.readAllStandardOutput()),
         {"profile lizard-local-build " + bin + "/lizard-local flags=(unconfined) {",
          "profile lizard-agent-build " + bin + "/lizard-agent flags=(unconfined) {"}}};
    for (const auto& [text, expected] : profiles) {
        QStringList rules;
        for (QString line : text.split('\n')) {
            line = line.trimmed();
            if (line.isEmpty() || line.startsWith('#') || line == u"}")
                continue;
            rules << line;
        }
        QVERIFY2(rules.contains("abi <abi/4.0>,"), qPrintable(text));
        QVERIFY2(rules.contains("include <tunables/global>"), qPrintable(text));
        for (const QString& line : expected)
            QVERIFY2(rules.contains(line), qPrintable(line + "\n" + text));
        // Nothing but the header, the profiles, their includes and `userns,`.
        for (const QString& rule : rules)
            QVERIFY2(rule == u"userns," || rule.startsWith("profile ") ||
                         rule.startsWith("include") || rule.startsWith("abi "),
                     qPrintable(rule));
        QCOMPARE(rules.count(QStringLiteral("userns,")), 2);
    }
    // Where the installed parser knows AppArmor 4's abi (Ubuntu 24.04), it must compile; Debian
    // 12's AppArmor 3 has neither the abi nor the restriction, so the lines above are the check.
    if (!QStandardPaths::findExecutable(QStringLiteral("apparmor_parser")).isEmpty() &&
        QFile::exists(QStringLiteral("/etc/apparmor.d/abi/4.0"))) {
        QProcess parser;
        parser.start(QStringLiteral("apparmor_parser"),
                     {QStringLiteral("--skip-kernel-load"), QStringLiteral("--skip-cache"),
                      packaged.fileName()});
        QVERIFY(parser.waitForFinished(60000));
        QVERIFY2(parser.exitCode() == 0, parser.readAllStandardError().constData());
    } else {
        qInfo("apparmor_parser with abi 4.0 is not installed here: the profiles' lines were "
              "checked, not compiled");
    }
}

QTEST_GUILESS_MAIN(TestHostProblems)
#include "tst_hostproblems.moc"
