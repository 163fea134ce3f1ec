#include "models/templates/recipeskeleton.h"

#include <QRegularExpression>
#include <QSet>

namespace lizard::models {

namespace {

// Folders whose content a package step makes, or that a sandbox's start and its programs fill
// on their own: not files of a recipe.
bool notAFileOfTheRecipe(const QString& path)
{
    static const QStringList prefixes = {"/var/lib/dpkg/",
                                         "/var/lib/apt/",
                                         "/var/cache/",
                                         "/var/log/",
                                         "/var/tmp/",
                                         "/usr/lib/",
                                         "/usr/share/",
                                         "/usr/bin/",
                                         "/usr/sbin/",
                                         "/usr/include/",
                                         "/usr/local/lib/python",
                                         "/usr/local/lib/node_modules/",
                                         "/usr/local/bin/",
                                         "/usr/local/share/",
                                         "/tmp/",
                                         "/run/",
                                         "/root/.cache/",
                                         "/home/user/.cache/",
                                         "/root/.npm/",
                                         "/home/user/.npm/",
                                         "/root/.local/lib/",
                                         "/home/user/.local/lib/",
                                         "/etc/ld.so.cache",
                                         "/etc/hostname",
                                         "/etc/hosts",
                                         "/etc/resolv.conf",
                                         "/etc/apt/",
                                         "/etc/alternatives/",
                                         "/root/.ipython/",
                                         "/home/user/.ipython/",
                                         "/root/.local/share/jupyter/",
                                         "/home/user/.local/share/jupyter/",
                                         "/root/.bash_history",
                                         "/home/user/.bash_history",
                                         "/root/.python_history",
                                         "/home/user/.python_history"};
    for (const QString& p : prefixes)
        if (path.startsWith(p))
            return true;
    return path.contains(QStringLiteral("/__pycache__/")) || path.endsWith(QStringLiteral(".pyc"));
}

QString yamlScalar(const QString& s)
{
    static const QRegularExpression plain(
        QStringLiteral("^[A-Za-z0-9_./+=-][A-Za-z0-9_./@+=:~-]*$"));
    if (plain.match(s).hasMatch() && !s.contains(QStringLiteral(": ")))
        return s;
    QString q = s;
    q.replace(u'\\', QStringLiteral("\\\\")).replace(u'"', QStringLiteral("\\\""));
    return u'"' + q + u'"';
}

// Packages apt installed as dependencies of others (Auto-Installed: 1).
QSet<QString> autoInstalled(const QByteArray& extendedStates)
{
    QSet<QString> out;
    QString package;
    for (const QByteArray& raw : extendedStates.split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (line.startsWith(QStringLiteral("Package:")))
            package = line.mid(8).trimmed();
        else if (line == QStringLiteral("Auto-Installed: 1") && !package.isEmpty())
            out.insert(package);
    }
    return out;
}

// The configuration files packages installed (dpkg's "Conffiles:"): the package step makes
// them again.
QSet<QString> packageConffiles(const QByteArray& dpkgStatus)
{
    QSet<QString> out;
    bool in = false;
    for (const QByteArray& raw : dpkgStatus.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.startsWith(QStringLiteral("Conffiles:"))) {
            in = true;
            continue;
        }
        if (in && line.startsWith(u' ')) {
            const QString path = line.trimmed().section(u' ', 0, 0);
            if (path.startsWith(u'/'))
                out.insert(path);
            continue;
        }
        in = false;
    }
    return out;
}

} // namespace

QStringList installedPackages(const QByteArray& dpkgStatus)
{
    QStringList out;
    QString package;
    for (const QByteArray& raw : dpkgStatus.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (line.startsWith(QStringLiteral("Package: ")))
            package = line.mid(9).trimmed();
        else if (line.startsWith(QStringLiteral("Status: ")) &&
                 line.endsWith(QStringLiteral(" installed")) && !package.isEmpty())
            out << package;
    }
    return out;
}

RecipeSkeleton recipeSkeleton(const SkeletonInput& in)
{
    RecipeSkeleton out;
    const QStringList templatePackages = installedPackages(in.templateDpkgStatus);
    const QSet<QString> before(templatePackages.begin(), templatePackages.end());
    const QSet<QString> pulled = autoInstalled(in.aptExtendedStates);
    QStringList apt;
    for (const QString& p : installedPackages(in.sandboxDpkgStatus))
        if (!before.contains(p) && !pulled.contains(p))
            apt << p;
    apt.sort();

    // pip: a .dist-info with a REQUESTED file was asked for by name.
    static const QRegularExpression distInfo(
        QStringLiteral("^(/usr/local/lib/python3[^/]*/dist-packages|/(?:root|home/user)/\\.local/"
                       "lib/python3[^/]*/site-packages)/([^/]+)-([^/-]+)\\.dist-info/REQUESTED$"));
    static const QRegularExpression npmTop(
        QStringLiteral("^/usr/local/lib/node_modules/((?:@[^/]+/)?[^/@]+)$"));
    const QSet<QString> conffiles = packageConffiles(in.sandboxDpkgStatus);
    QStringList pip;
    QStringList npm;
    QStringList deleted;
    qint64 bytes = 0;
    for (const client::FileChange& c : in.changes.changes) {
        if (c.kind == QLatin1String("added") && c.type == QLatin1String("file")) {
            if (const auto m = distInfo.match(c.path); m.hasMatch())
                pip << m.captured(2).replace(u'_', u'-') + QStringLiteral("==") + m.captured(3);
        }
        if (c.kind == QLatin1String("added") && c.type == QLatin1String("dir")) {
            if (const auto m = npmTop.match(c.path); m.hasMatch() && m.captured(1) != u"npm")
                npm << m.captured(1);
        }
        if (c.kind == QLatin1String("deleted")) {
            if (!notAFileOfTheRecipe(c.path))
                deleted << c.path;
            continue;
        }
        if (c.type != QLatin1String("file") || notAFileOfTheRecipe(c.path) ||
            conffiles.contains(c.path))
            continue;
        if (out.files.size() >= kSkeletonMaxFiles) {
            out.skipped
                << QStringLiteral("%1: more than %2 files").arg(c.path).arg(kSkeletonMaxFiles);
            continue;
        }
        if (bytes + c.size > kSkeletonMaxBytes) {
            out.skipped << QStringLiteral("%1: %2 bytes, over the %3 MiB a build may send")
                               .arg(c.path)
                               .arg(c.size)
                               .arg(kSkeletonMaxBytes >> 20);
            continue;
        }
        bytes += c.size;
        out.files << c.path;
    }
    pip.sort();
    npm.sort();

    QString r = QStringLiteral("# Made from sandbox %1: what it installed and the files it added "
                               "or changed.\n# Check it before you build: the files below are "
                               "saved in this recipe's folder.\n")
                    .arg(in.sandboxId);
    r += QStringLiteral("from: %1\n")
             .arg(in.templateName.isEmpty() ? QStringLiteral("base") : in.templateName);
    const auto list = [&r](const QString& key, const QStringList& items) {
        if (items.isEmpty())
            return;
        r += key + QStringLiteral(":\n");
        for (const QString& i : items)
            r += QStringLiteral("  - ") + yamlScalar(i) + u'\n';
    };
    list(QStringLiteral("apt"), apt);
    list(QStringLiteral("pip"), pip);
    list(QStringLiteral("npm"), npm);
    if (!out.files.isEmpty()) {
        r += QStringLiteral("files:\n");
        for (const QString& f : out.files)
            r += QStringLiteral("  ") + yamlScalar(f.mid(1)) + QStringLiteral(": ") +
                 yamlScalar(f) + u'\n';
    }
    if (!out.skipped.isEmpty()) {
        r += QStringLiteral("# Left out:\n");
        for (const QString& s : out.skipped)
            r += QStringLiteral("#   ") + s + u'\n';
    }
    if (!deleted.isEmpty()) {
        r += QStringLiteral("# The sandbox also deleted these (a recipe adds, it does not delete; "
                            "a run step with rm would):\n");
        for (const QString& d : deleted.mid(0, 50))
            r += QStringLiteral("#   ") + d + u'\n';
    }
    if (apt.isEmpty() && pip.isEmpty() && npm.isEmpty() && out.files.isEmpty())
        r += QStringLiteral("# The sandbox installed and changed nothing a recipe would carry.\n"
                            "run: echo \"nothing to add yet\"\n");
    out.recipe = r;
    return out;
}

} // namespace lizard::models
