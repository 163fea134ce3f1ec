// apt-get install in a sandbox: /usr and the package state are copy-on-write per sandbox.
// One sandbox runs `apt-get update` and installs a package from the host's mirror (one
// update per run: the mirror is slow and CI's time short); that package must stay out of the
// host and of other sandboxes, and must survive pause/resume, a fork and a snapshot restore.
// A package built in the sandbox with dpkg-deb installs without network (the path an
// ordinary user's server without slirp4netns has). As root, a package the host has is
// reinstalled in the sandbox, which replaces the host's files there and only there.
#include "lifecycle_support.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <unistd.h>

using lizard::test::describe;
using lizard::test::jsonArray;
using lizard::test::jsonObject;
using lizard::test::LocalServer;
using lizard::test::SandboxApi;
using lizard::test::toJson;

namespace {

// Small, in Debian's main archive, and checked to be absent from the host in initTestCase.
const QString kPackage = QStringLiteral("hello");
const QString kBinary = QStringLiteral("/usr/bin/hello");

bool hostHasPackage(const QString& name)
{
    QProcess dpkg;
    dpkg.start("dpkg-query", {"-W", "-f=${Status}", name});
    dpkg.waitForFinished(30000);
    return dpkg.exitCode() == 0 && dpkg.readAllStandardOutput().contains("ok installed");
}

} // namespace

class TestApiApt : public QObject
{
    Q_OBJECT

    LocalServer m_server;
    SandboxApi m_api{m_server};
    QString m_source; // has network; installs kPackage from the mirror
    QStringList m_created;
    QString m_snapshot;
    bool m_installed = false;
    // What the later checks look for: the mirror's package, or without network the probe.
    QString m_package = kPackage;
    QString m_binary = kBinary;
    QString m_output = QStringLiteral("Hello, world!\n");

    // Like SandboxApi::run, with exec's longest timeout (apt may take minutes on CI).
    QString runLong(const QString& id, const QString& cmd)
    {
        const auto r = m_server.request("POST", "/api/sandboxes/" + id + "/exec",
                                        toJson({{"cmd", cmd}, {"timeoutMs", 600000}}));
        if (r.status != 200)
            return "<" + describe(r) + ">";
        const QJsonObject o = jsonObject(r);
        if (o.value("exitCode").toInt() != 0)
            return QStringLiteral("<exit %1: %2 %3>")
                .arg(o.value("exitCode").toInt())
                .arg(o.value("stdout").toString().right(1500),
                     o.value("stderr").toString().right(1500));
        return o.value("stdout").toString();
    }

    QString create(const QJsonObject& body)
    {
        const auto r = m_server.request("POST", "/api/sandboxes", toJson(body));
        if (r.status != 200)
            return {};
        const QString id = jsonObject(r).value("sandboxId").toString();
        m_created << id;
        return id;
    }

    // What a sandbox that should have the package says about it.
    void verifyInstalled(const QString& id)
    {
        QCOMPARE(m_api.run(id, m_binary), m_output);
        QCOMPARE(m_api.run(id, "dpkg-query -W -f='${Status}' " + m_package),
                 QStringLiteral("install ok installed"));
    }

    // Builds a package with dpkg-deb in the sandbox and installs it with apt (no network).
    QString installProbe(const QString& id)
    {
        return runLong(
            id, "set -e; export DEBIAN_FRONTEND=noninteractive; d=/tmp/pkg; "
                "mkdir -p $d/DEBIAN $d/usr/bin; "
                "printf 'Package: lizard-apt-probe\\nVersion: 1.0\\nArchitecture: "
                "all\\nMaintainer: lizard "
                "<l@example.org>\\nDescription: probe\\n' > $d/DEBIAN/control; "
                "printf '#!/bin/sh\\necho probe-ok\\n' > $d/usr/bin/lizard-apt-probe; chmod 755 "
                "$d/usr/bin/lizard-apt-probe; "
                "dpkg-deb --root-owner-group --build $d /tmp/probe.deb >/dev/null; "
                "apt-get install -y -qq /tmp/probe.deb >/dev/null; lizard-apt-probe");
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(!hostHasPackage(kPackage) && !QFile::exists(kBinary),
                 "the host has the test package installed; the test needs one it lacks");
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        const auto r = m_server.request(
            "POST", "/api/sandboxes",
            toJson({{"size", "mini"}, {"timeoutMs", 1800000}, {"internetAccess", true}}));
        LIZ_REQUIRE_CREATED(r);
        m_source = jsonObject(r).value("sandboxId").toString();
        m_created << m_source;
    }

    void cleanupTestCase()
    {
        for (const QString& id : m_created)
            m_api.kill(id);
        if (!m_snapshot.isEmpty())
            m_server.request("DELETE", "/api/sandbox-snapshots/" + m_snapshot);
    }

    void installFromTheMirror()
    {
        QVERIFY(!m_source.isEmpty());
        if (!m_api.info(m_source).value("internetAccess").toBool()) {
            // The rest of the suite still checks where an installed package goes and stays.
            QCOMPARE(installProbe(m_source), QStringLiteral("probe-ok\n"));
            m_package = QStringLiteral("lizard-apt-probe");
            m_binary = QStringLiteral("/usr/bin/lizard-apt-probe");
            m_output = QStringLiteral("probe-ok\n");
            m_installed = true;
            QSKIP("this server gives sandboxes no network (no usable slirp4netns): the checks "
                  "that follow use a package built in the sandbox instead of the mirror's");
        }
        // An unreachable mirror fails here: CI reaches the same one.
        const QString out =
            runLong(m_source, "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && "
                              "apt-get install -y -qq " +
                                  kPackage + " >/dev/null && echo installed");
        QVERIFY2(out.endsWith("installed\n"), qPrintable(out));
        verifyInstalled(m_source);
        // The sandbox's /usr is copy-on-write: the new file is in its own layer.
        QCOMPARE(m_api.run(m_source, "stat -c %U " + kBinary), QStringLiteral("root\n"));
        m_installed = true;
    }

    void replacesAPackageTheHostHas()
    {
        QVERIFY2(m_installed, "installFromTheMirror installed nothing");
        if (m_package != kPackage)
            QSKIP("this server gives sandboxes no network: no package to reinstall from");
        if (::geteuid() != 0 || !m_server.serverUser().isEmpty())
            QSKIP("lizard-local runs as an ordinary user here, who may not idmap the host's "
                  "/usr: a package the host has cannot be replaced in a sandbox (runtime README)");
        // A small package the host has, at a version the mirror still serves, so --reinstall
        // makes dpkg replace the host's files in the sandbox (an upgrade does the same).
        const QString picked = runLong(
            m_source, "for p in sensible-utils debianutils netbase hostname readline-common; do "
                      "v=$(dpkg-query -W -f='${Version}' $p 2>/dev/null) || continue; "
                      "apt-cache madison $p | grep -qF \" $v \" || continue; "
                      "f=$(dpkg -L $p | while read -r f; do case $f in /usr/*) [ -f \"$f\" ] && "
                      "[ ! -L \"$f\" ] && { echo \"$f\"; break; };; esac; done); "
                      "[ -n \"$f\" ] && { echo \"$p $f\"; exit 0; }; done; echo none");
        const QStringList parts = picked.trimmed().split(' ');
        QVERIFY2(parts.size() == 2, qPrintable("no candidate package: " + picked));
        const QString package = parts[0], file = parts[1];
        QFile hostFile(file);
        QVERIFY2(hostFile.open(QIODevice::ReadOnly), qPrintable(file));
        const QByteArray hostContent = hostFile.readAll();
        const QDateTime hostChanged = QFileInfo(file).metadataChangeTime();
        // Idmapped: the host's files belong to the sandbox's root (not to "nobody").
        QCOMPARE(m_api.run(m_source, "stat -c %U:%G " + file), QStringLiteral("root:root\n"));
        const QString out = runLong(
            m_source, "export DEBIAN_FRONTEND=noninteractive; apt-get install -y -qq --reinstall " +
                          package + " >/dev/null && dpkg --verify " + package +
                          " && echo '# sandbox' >> " + file + " && tail -n 1 " + file);
        QCOMPARE(out, QStringLiteral("# sandbox\n"));
        QCOMPARE(m_api.run(m_source, "dpkg-query -W -f='${Status}' " + package),
                 QStringLiteral("install ok installed"));
        // The host's file is untouched: same content, same inode change time.
        hostFile.seek(0);
        QCOMPARE(hostFile.readAll(), hostContent);
        QCOMPARE(QFileInfo(file).metadataChangeTime(), hostChanged);
    }

    void upgradeOfAHostPackage()
    {
        // Offline, in both id mappings: a newer version of a package the host has, built in the
        // sandbox. As root (the host's /usr idmapped) it replaces the host's version there; as
        // an ordinary user apt stops before dpkg, says why, and changes nothing.
        QString package;
        for (const QString& p : {"sensible-utils", "readline-common", "netbase", "hostname"}) {
            if (hostHasPackage(p)) {
                package = p;
                break;
            }
        }
        QVERIFY2(!package.isEmpty(), "the host has none of the small packages the test upgrades");
        QProcess query;
        query.start("dpkg-query", {"-W", "-f=${Version}", package});
        query.waitForFinished(30000);
        const QString hostVersion = QString::fromUtf8(query.readAllStandardOutput());
        const QString id = create({{"size", "mini"}, {"timeoutMs", 600000}});
        QVERIFY(!id.isEmpty());
        const QString out = runLong(
            id,
            "export DEBIAN_FRONTEND=noninteractive; d=/tmp/up; "
            "mkdir -p $d/DEBIAN $d/usr/share/doc/lizard-upgrade-probe; "
            "printf 'Package: " +
                package +
                "\\nVersion: 99:1.0\\nArchitecture: all\\n"
                "Maintainer: lizard <l@example.org>\\nDescription: probe\\n' > $d/DEBIAN/control; "
                "echo probe > $d/usr/share/doc/lizard-upgrade-probe/note; "
                "dpkg-deb --root-owner-group --build $d /tmp/up.deb >/dev/null && "
                "apt-get install -y -qq /tmp/up.deb 2>&1 && echo upgraded");
        const QString inSandbox = m_api.run(id, "dpkg-query -W -f='${Version}' " + package);
        if (::geteuid() == 0 && m_server.serverUser().isEmpty()) {
            QVERIFY2(out.endsWith("upgraded\n"), qPrintable(out));
            QCOMPARE(inSandbox, QStringLiteral("99:1.0"));
        } else {
            QVERIFY2(out.contains("these packages come from the host") && out.contains(package) &&
                         out.contains("Nothing was changed"),
                     qPrintable(out));
            QCOMPARE(inSandbox, hostVersion); // nothing changed, nothing half-installed
            QCOMPARE(m_api.run(id, "dpkg-query -W -f='${Status}' " + package),
                     QStringLiteral("install ok installed"));
            // Removing it is stopped the same way.
            const QString removed = runLong(id, "apt-get remove -y -qq " + package + " 2>&1");
            QVERIFY2(removed.contains("neither replace nor remove"), qPrintable(removed));
            QCOMPARE(m_api.run(id, "dpkg-query -W -f='${Version}' " + package), hostVersion);
        }
        QVERIFY(hostHasPackage(package));
        query.start("dpkg-query", {"-W", "-f=${Version}", package});
        query.waitForFinished(30000);
        QCOMPARE(QString::fromUtf8(query.readAllStandardOutput()), hostVersion);
    }

    void hostAndOtherSandboxesDoNotHaveIt()
    {
        QVERIFY2(m_installed, "installFromTheMirror installed nothing");
        QVERIFY(!hostHasPackage(m_package));
        QVERIFY(!QFile::exists(m_binary));
        const QString other = create({{"size", "mini"}, {"timeoutMs", 600000}});
        QVERIFY(!other.isEmpty());
        QCOMPARE(m_api.run(other, "test -e " + m_binary + " && echo there || echo absent"),
                 QStringLiteral("absent\n"));
        QCOMPARE(m_api.run(other, "dpkg-query -W " + m_package +
                                      " >/dev/null 2>&1 && echo known || echo unknown"),
                 QStringLiteral("unknown\n"));
    }

    void installLocalPackage()
    {
        // Built and installed inside the sandbox: apt and dpkg write /usr, /var/lib/dpkg and
        // the file lists as root there, in every id mapping, network or not.
        const QString id = create({{"size", "mini"}, {"timeoutMs", 600000}});
        QVERIFY(!id.isEmpty());
        const QString out = installProbe(id);
        QCOMPARE(out, QStringLiteral("probe-ok\n"));
        QCOMPARE(m_api.run(id, "dpkg-query -W -f='${Status}' lizard-apt-probe"),
                 QStringLiteral("install ok installed"));
        QVERIFY(!QFile::exists("/usr/bin/lizard-apt-probe"));
        QVERIFY(!hostHasPackage("lizard-apt-probe"));
        // Removing it works too, and leaves the host's packages alone.
        QCOMPARE(runLong(id, "apt-get remove -y -qq lizard-apt-probe >/dev/null && "
                             "test ! -e /usr/bin/lizard-apt-probe && dpkg-query -W bash >/dev/null "
                             "&& echo removed"),
                 QStringLiteral("removed\n"));
    }

    void survivesPauseAndResume()
    {
        QVERIFY2(m_installed, "installFromTheMirror installed nothing");
        QCOMPARE(m_api.post(m_source, "pause"), 204);
        QTRY_COMPARE_WITH_TIMEOUT(m_api.status(m_source), QStringLiteral("paused"), 30000);
        QCOMPARE(m_api.post(m_source, "resume"), 204);
        QTRY_COMPARE_WITH_TIMEOUT(m_api.status(m_source), QStringLiteral("running"), 30000);
        verifyInstalled(m_source);
    }

    void forkHasIt()
    {
        QVERIFY2(m_installed, "installFromTheMirror installed nothing");
        const auto r = m_server.request("POST", "/api/sandboxes/" + m_source + "/fork",
                                        R"({"count":1,"timeoutMs":600000})");
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        const QString copy =
            jsonArray(r).at(0).toObject().value("sandbox").toObject().value("sandboxId").toString();
        QVERIFY2(!copy.isEmpty(), qPrintable(describe(r)));
        m_created << copy;
        verifyInstalled(copy);
    }

    void snapshotRestoreHasIt()
    {
        QVERIFY2(m_installed, "installFromTheMirror installed nothing");
        const auto r = m_server.request("POST", "/api/sandboxes/" + m_source + "/snapshot",
                                        toJson({{"name", "with apt"}}));
        QVERIFY2(r.status == 200, qPrintable(describe(r)));
        m_snapshot = jsonObject(r).value("id").toString();
        const QString copy = create({{"snapshotId", m_snapshot}, {"timeoutMs", 600000}});
        QVERIFY(!copy.isEmpty());
        verifyInstalled(copy);
        // apt's lists came along: no second update needed to install more.
        if (m_package == kPackage)
            QCOMPARE(m_api.run(copy, "ls /var/lib/apt/lists/*_Packages* >/dev/null && echo lists"),
                     QStringLiteral("lists\n"));
    }
};

QTEST_GUILESS_MAIN(TestApiApt)
#include "tst_api_apt.moc"
