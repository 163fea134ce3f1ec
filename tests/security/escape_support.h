#pragma once
// Helpers of the escape suite: run a probe inside a sandbox of a real lizard-local and read
// what happened. Probes are small Python programs (python3 is in every template), so a
// syscall can be tried with its raw number and its errno read back.

#include "server/lifecycle_support.h"

#include <QRegularExpression>

namespace lizard::test {

struct ProbeResult
{
    int httpStatus = 0;
    int exitCode = -1;
    QString out, err;
    QString describe() const
    {
        return QStringLiteral("HTTP %1, exit %2, stdout [%3], stderr [%4]")
            .arg(httpStatus)
            .arg(exitCode)
            .arg(out.left(400), err.left(400));
    }
};

// Runs argv (no shell) in the sandbox as `user` ("" = root) and collects the result.
inline ProbeResult runArgv(const LocalServer& server, const QString& id, const QStringList& argv,
                           const QString& user = {}, int timeoutMs = 60000)
{
    QJsonObject body{{"cmd", QJsonArray::fromStringList(argv)}, {"timeoutMs", timeoutMs}};
    if (!user.isEmpty())
        body.insert("user", user);
    const auto r = server.request("POST", "/api/sandboxes/" + id + "/exec", toJson(body));
    ProbeResult p;
    p.httpStatus = r.status;
    const QJsonObject o = jsonObject(r);
    p.exitCode = o.value("exitCode").toInt(-1);
    p.out = o.value("stdout").toString();
    p.err = o.value("stderr").toString();
    return p;
}

inline ProbeResult runShell(const LocalServer& server, const QString& id, const QString& cmd,
                            const QString& user = {}, int timeoutMs = 60000)
{
    return runArgv(server, id, {"/bin/sh", "-c", cmd}, user, timeoutMs);
}

inline ProbeResult runPython(const LocalServer& server, const QString& id, const QString& code,
                             const QString& user = {}, int timeoutMs = 60000)
{
    return runArgv(server, id, {"python3", "-c", code}, user, timeoutMs);
}

// The host pid of a sandbox's PID 1, as lizard-local logged it at creation. `seen` collects
// the server's output across calls (each read of the log takes what it returns).
inline qint64 agentHostPid(const LocalServer& server, const QString& id, QByteArray& seen)
{
    const QRegularExpression re("sandbox " + QRegularExpression::escape(id) +
                                " started \\(.*pid (\\d+)\\)");
    for (int i = 0; i < 50; ++i) {
        seen += server.log();
        if (const auto m = re.match(QString::fromUtf8(seen)); m.hasMatch())
            return m.captured(1).toLongLong();
        QTest::qWait(100);
    }
    return 0;
}

// Python source that defines sc(nr, *args) -> 0 or the errno of a raw syscall.
inline QString pySyscallPrelude()
{
    return QStringLiteral("import ctypes, errno, os\n"
                          "libc = ctypes.CDLL(None, use_errno=True)\n"
                          "libc.syscall.restype = ctypes.c_long\n"
                          "def sc(nr, *args):\n"
                          "    ctypes.set_errno(0)\n"
                          "    r = libc.syscall(ctypes.c_long(nr), *[ctypes.c_long(a) if "
                          "isinstance(a, int) else a for a in args])\n"
                          "    return 0 if r >= 0 else ctypes.get_errno()\n"
                          "def name(e):\n"
                          "    return errno.errorcode.get(e, str(e)) if e else 'OK'\n");
}

} // namespace lizard::test
