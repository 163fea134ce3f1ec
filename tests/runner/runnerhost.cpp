#include "runner/runnerhost.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <signal.h>

namespace lizard::test {

namespace {

bool pythonCan(const QString& python, const QString& imports)
{
    if (python.isEmpty())
        return false;
    QProcess p;
    p.start(python, {"-c", "import " + imports});
    return p.waitForFinished(30000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

QStringList pythonCandidates()
{
    QStringList found;
    const QString fromEnv = qEnvironmentVariable("LIZARD_TEST_PYTHON");
    if (!fromEnv.isEmpty())
        found << fromEnv;
    // Debian's python3 first: a user's pyenv/venv python often lacks the Jupyter stack.
    found << QStandardPaths::findExecutable("python3", {"/usr/bin", "/bin"})
          << QStandardPaths::findExecutable("python3");
    return found;
}

} // namespace

RunnerHost::RunnerHost(const QString& root) : m_root(root)
{
    QDir().mkpath(cwd());
}

QString RunnerHost::script()
{
    return QStringLiteral(LIZARD_RUNNER_SCRIPT);
}

QString RunnerHost::python()
{
    static const QString chosen = [] {
        for (const QString& p : pythonCandidates()) {
            if (pythonCan(p, "jupyter_client, ipykernel"))
                return p;
        }
        return QString();
    }();
    return chosen;
}

QString RunnerHost::plainPython()
{
    const QString kernelPython = python();
    if (!kernelPython.isEmpty())
        return kernelPython;
    for (const QString& p : pythonCandidates()) {
        if (!p.isEmpty())
            return p;
    }
    return {};
}

QByteArray RunnerHost::encodeArgs(const QJsonObject& args)
{
    return QJsonDocument(args).toJson(QJsonDocument::Compact).toBase64();
}

QProcessEnvironment RunnerHost::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("LIZARD_CODE_ROOT", m_root);
    env.insert("PYTHONDONTWRITEBYTECODE", "1");
    env.insert(m_extraEnv);
    return env;
}

RunnerOutcome RunnerHost::run(const QJsonObject& request, int timeoutMs, bool asDashC) const
{
    // Never let a test create the runner's default /home/user on the host.
    QJsonObject args = request;
    const QString action = args.value("action").toString();
    if ((action == "create" || action == "run") && !args.contains("cwd"))
        args["cwd"] = cwd();
    const QString b64 = QString::fromLatin1(encodeArgs(args));
    if (!asDashC)
        return runRaw({script(), b64}, timeoutMs);
    QFile f(script());
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return runRaw({"-c", QString::fromUtf8(f.readAll()), b64}, timeoutMs);
}

RunnerOutcome RunnerHost::runRaw(const QStringList& argv, int timeoutMs) const
{
    RunnerOutcome outcome;
    QElapsedTimer clock;
    clock.start();
    QProcess p;
    p.setProcessEnvironment(environment());
    p.start(plainPython(), argv);
    const bool done = p.waitForFinished(timeoutMs);
    if (!done) {
        p.kill();
        p.waitForFinished(5000);
    }
    outcome.elapsedMs = clock.elapsed();
    outcome.finished = done && p.exitStatus() == QProcess::NormalExit;
    outcome.exitCode = outcome.finished ? p.exitCode() : -1;
    outcome.stderrText = p.readAllStandardError();
    EventDecoder decoder;
    for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
        if (line.isEmpty())
            continue;
        if (auto event = decoder.feed(line))
            outcome.events.append(*event);
    }
    outcome.partLines = decoder.partLines();
    return outcome;
}

RunnerOutcome RunnerHost::runCode(const QString& context, const QString& code,
                                  const QJsonObject& extra) const
{
    QJsonObject args = extra;
    args["action"] = "run";
    args["code"] = code;
    if (!context.isEmpty())
        args["context"] = context;
    else if (!args.contains("cwd"))
        args["cwd"] = cwd();
    return run(args);
}

QString RunnerHost::createContext(const QString& language) const
{
    const RunnerOutcome created =
        run({{"action", "create"}, {"language", language}, {"cwd", cwd()}});
    return created.first("context").value("id").toString();
}

qint64 RunnerHost::kernelPid(const QString& root, const QString& context)
{
    QFile f(root + "/" + context + "/kernel.pid");
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return f.readAll().trimmed().toLongLong();
}

void RunnerHost::killKernels() const
{
    const QStringList contexts = QDir(m_root).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& context : contexts) {
        const qint64 pid = kernelPid(m_root, context);
        QFile cmdline(QString("/proc/%1/cmdline").arg(pid));
        if (pid <= 0 || !cmdline.open(QIODevice::ReadOnly) ||
            !cmdline.readAll().contains("ipykernel"))
            continue;
        // First its watcher (the parent, which would write kernel.exit into the directory being
        // removed), then the kernel's own process group.
        QFile stat(QString("/proc/%1/stat").arg(pid));
        if (stat.open(QIODevice::ReadOnly)) {
            const QByteArray text = stat.readAll();
            const QList<QByteArray> fields = text.mid(text.lastIndexOf(") ") + 2).split(' ');
            const qint64 parent = fields.size() > 1 ? fields.at(1).toLongLong() : 0;
            QFile parentCmd(QString("/proc/%1/cmdline").arg(parent));
            if (parent > 1 && parentCmd.open(QIODevice::ReadOnly) &&
                parentCmd.readAll().contains("kernel.exit"))
                ::kill(static_cast<pid_t>(parent), SIGKILL);
        }
        ::killpg(static_cast<pid_t>(pid), SIGKILL);
    }
}

} // namespace lizard::test
