#include "nbformatpython.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>

namespace lizard::notebook::test {

QString nbformatPython()
{
    static const QString found = [] {
        QStringList candidates;
        const QString onPath = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (!onPath.isEmpty())
            candidates << onPath;
        candidates << QStringLiteral("/usr/bin/python3"); // Debian's, where python3-nbformat is
        for (const QString& python : candidates) {
            if (!QFile::exists(python))
                continue;
            QProcess p;
            p.start(python, {QStringLiteral("-c"), QStringLiteral("import nbformat")});
            if (p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit &&
                p.exitCode() == 0)
                return python;
        }
        return QString();
    }();
    return found;
}

PythonRun runPython(const QString& script, const QStringList& args)
{
    PythonRun result;
    const QString python = nbformatPython();
    if (python.isEmpty()) {
        result.output = QStringLiteral("no python3 with nbformat found");
        return result;
    }
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(python, QStringList{QStringLiteral("-c"), script} + args);
    const bool finished = p.waitForFinished(60000);
    result.output = QString::fromUtf8(p.readAll());
    result.ok = finished && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    return result;
}

PythonRun validateWithNbformat(const QString& path)
{
    return runPython(QStringLiteral("import nbformat, sys\n"
                                    "nb = nbformat.read(sys.argv[1], as_version=4)\n"
                                    "nbformat.validate(nb)\n"),
                     {path});
}

} // namespace lizard::notebook::test
