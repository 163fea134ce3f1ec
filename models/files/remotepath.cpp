#include "models/files/remotepath.h"

#include <QDir>

namespace lizard::models::files {

QString RemotePath::clean(const QString& path)
{
    QString p = path.trimmed();
    if (!p.startsWith(QLatin1Char('/')))
        p.prepend(QLatin1Char('/'));
    p = QDir::cleanPath(p);
    // cleanPath keeps "/.." at the start; nothing is above the root.
    while (p.startsWith(QLatin1String("/..")) && (p.size() == 3 || p.at(3) == QLatin1Char('/')))
        p = p.mid(3).isEmpty() ? QStringLiteral("/") : p.mid(3);
    return p;
}

QString RemotePath::fileName(const QString& path)
{
    const QString p = clean(path);
    return p == QLatin1String("/") ? p : p.section(QLatin1Char('/'), -1);
}

QString RemotePath::parentOf(const QString& path)
{
    const QString p = clean(path);
    const qsizetype slash = p.lastIndexOf(QLatin1Char('/'));
    return slash <= 0 ? QStringLiteral("/") : p.left(slash);
}

QString RemotePath::join(const QString& dir, const QString& name)
{
    return clean(clean(dir) + QLatin1Char('/') + name);
}

bool RemotePath::isInside(const QString& path, const QString& dir)
{
    const QString p = clean(path);
    const QString d = clean(dir);
    if (p == d)
        return false;
    return d == QLatin1String("/") || p.startsWith(d + QLatin1Char('/'));
}

QString RemotePath::checkName(const QString& name)
{
    if (name.isEmpty())
        return QStringLiteral("the name is empty");
    if (name == QLatin1String(".") || name == QLatin1String(".."))
        return QStringLiteral("\"%1\" is not a usable name").arg(name);
    if (name.contains(QLatin1Char('/')))
        return QStringLiteral("a name cannot contain \"/\"");
    if (name.contains(QChar(0)))
        return QStringLiteral("a name cannot contain a NUL character");
    return {};
}

} // namespace lizard::models::files
