// A recipe made from a sandbox's changes: the Debian packages it installed by hand (not the
// template's, not apt's dependencies), the pip packages asked for by name, global npm packages,
// the files it added or changed (not package folders, caches or what its start writes), the
// bounds on files, quoting, deletions as a comment, and a sandbox that changed nothing.
#include "models/templates/recipeskeleton.h"

#include <QtTest>

using namespace lizard;
using models::recipeSkeleton;
using models::SkeletonInput;

namespace {

client::FileChange change(const QString& path, const QString& kind, const QString& type,
                          qint64 size = 10)
{
    client::FileChange c;
    c.path = path;
    c.kind = kind;
    c.type = type;
    c.size = size;
    return c;
}

QByteArray status(const QStringList& installed, const QStringList& removed = {})
{
    QByteArray out;
    for (const QString& p : installed)
        out += "Package: " + p.toUtf8() + "\nStatus: install ok installed\nVersion: 1\n\n";
    for (const QString& p : removed)
        out += "Package: " + p.toUtf8() + "\nStatus: deinstall ok config-files\n\n";
    return out;
}

} // namespace

class TestRecipeSkeleton : public QObject
{
    Q_OBJECT
private slots:
    void packagesFilesAndWhatIsLeftOut()
    {
        SkeletonInput in;
        in.templateName = "interpreter";
        in.sandboxId = "sb_1";
        in.templateDpkgStatus = status({"bash", "python3"});
        in.sandboxDpkgStatus = status({"bash", "python3", "jq", "libjq1", "figlet"}, {"nano"}) +
                               "Package: figlet-conf\nStatus: install ok installed\nConffiles:\n"
                               " /etc/emacs/site-start.d/50figlet.el 0a1b2c\n"
                               " /etc/figlet.conf 3d4e5f\nVersion: 1\n\n";
        in.aptExtendedStates = "Package: libjq1\nArchitecture: amd64\nAuto-Installed: 1\n\n";
        const QString site = "/usr/local/lib/python3.11/dist-packages/";
        in.changes.changes = {
            change(site + "requests-2.31.0.dist-info", "added", "dir"),
            change(site + "requests-2.31.0.dist-info/REQUESTED", "added", "file", 0),
            change(site + "urllib3-2.0.4.dist-info/METADATA", "added", "file"), // a dependency
            change(site + "typing_extensions-4.7.1.dist-info/REQUESTED", "added", "file", 0),
            change("/usr/local/lib/node_modules/typescript", "added", "dir"),
            change("/usr/local/lib/node_modules/@scope/tool", "added", "dir"),
            change("/usr/local/lib/node_modules/typescript/package.json", "added", "file"),
            change("/root/project/main.py", "added", "file"),
            change("/root/project/__pycache__/main.cpython-311.pyc", "added", "file"),
            change("/etc/my app.conf", "modified", "file"),
            change("/var/lib/dpkg/status", "modified", "file"),
            change("/etc/hostname", "modified", "file"),
            change("/tmp/scratch", "added", "file"),
            change("/root/data", "added", "dir"),
            change("/root/link", "added", "symlink"),
            change("/etc/issue", "deleted", "file"),
            change("/etc/emacs/site-start.d/50figlet.el", "added", "file"), // the package's
        };
        const models::RecipeSkeleton s = recipeSkeleton(in);
        QCOMPARE(s.files, (QStringList{"/root/project/main.py", "/etc/my app.conf"}));
        QVERIFY(s.skipped.isEmpty());
        const QString expected = "# Made from sandbox sb_1: what it installed and the files it "
                                 "added or changed.\n"
                                 "# Check it before you build: the files below are saved in "
                                 "this recipe's folder.\n"
                                 "from: interpreter\n"
                                 "apt:\n  - figlet\n  - figlet-conf\n  - jq\n"
                                 "pip:\n  - requests==2.31.0\n  - typing-extensions==4.7.1\n"
                                 "npm:\n  - \"@scope/tool\"\n  - typescript\n"
                                 "files:\n"
                                 "  root/project/main.py: /root/project/main.py\n"
                                 "  \"etc/my app.conf\": \"/etc/my app.conf\"\n"
                                 "# The sandbox also deleted these (a recipe adds, it does not "
                                 "delete; a run step with rm would):\n"
                                 "#   /etc/issue\n";
        QVERIFY2(s.recipe == expected, qPrintable(s.recipe));
    }

    void filesPastTheBoundsAreLeftOutAndSaid()
    {
        SkeletonInput in;
        in.sandboxId = "sb_2";
        in.changes.changes = {change("/root/big.bin", "added", "file", 40LL << 20)};
        for (int i = 0; i < models::kSkeletonMaxFiles + 1; ++i)
            in.changes.changes.append(change(QStringLiteral("/root/f%1").arg(i), "added", "file"));
        const models::RecipeSkeleton s = recipeSkeleton(in);
        QCOMPARE(s.files.size(), models::kSkeletonMaxFiles);
        QCOMPARE(s.skipped.size(), 2);
        QVERIFY2(s.skipped.first().startsWith("/root/big.bin: 41943040 bytes, over the 32 MiB"),
                 qPrintable(s.skipped.first()));
        QVERIFY(s.recipe.contains("# Left out:\n#   /root/big.bin"));
        QVERIFY(s.recipe.contains("from: base\n")); // no template name known: base
    }

    void aSandboxThatChangedNothing()
    {
        SkeletonInput in;
        in.templateName = "base";
        in.sandboxId = "sb_3";
        in.templateDpkgStatus = in.sandboxDpkgStatus = status({"bash"});
        in.changes.changes = {change("/etc/resolv.conf", "modified", "file")};
        const models::RecipeSkeleton s = recipeSkeleton(in);
        QVERIFY(s.files.isEmpty());
        QVERIFY2(s.recipe.endsWith("run: echo \"nothing to add yet\"\n"), qPrintable(s.recipe));
    }

    void installedPackagesReadsStatus()
    {
        QCOMPARE(models::installedPackages(status({"a", "b"}, {"c"})), (QStringList{"a", "b"}));
        QVERIFY(models::installedPackages({}).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestRecipeSkeleton)
#include "tst_recipeskeleton.moc"
