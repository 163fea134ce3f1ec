#pragma once
// Helpers of the pause, snapshot and fork suites: commands and files in a sandbox, through
// the API of a real lizard-local.

#include "support_http.h"

namespace lizard::test {

class SandboxApi
{
public:
    explicit SandboxApi(const LocalServer& server) : m_server(server) {}

    LocalServer::Response exec(const QString& id, const QString& cmd) const
    {
        return m_server.request("POST", "/api/sandboxes/" + id + "/exec",
                                toJson(QJsonObject{{"cmd", cmd}}));
    }
    // stdout of a command that must succeed ("<HTTP ...>" or "<exit N: stderr>" if not).
    QString run(const QString& id, const QString& cmd) const
    {
        const auto r = exec(id, cmd);
        if (r.status != 200)
            return "<" + describe(r) + ">";
        const QJsonObject o = jsonObject(r);
        if (o.value("exitCode").toInt() != 0)
            return QStringLiteral("<exit %1: %2>")
                .arg(o.value("exitCode").toInt())
                .arg(o.value("stderr").toString());
        return o.value("stdout").toString();
    }
    int write(const QString& id, const QString& path, const QString& content) const
    {
        return m_server
            .request("POST", "/api/sandboxes/" + id + "/files",
                     toJson(QJsonObject{{"path", path}, {"content", content}}))
            .status;
    }
    LocalServer::Response read(const QString& id, const QString& path) const
    {
        return m_server.request("GET", "/api/sandboxes/" + id + "/files?path=" + path);
    }
    QJsonObject info(const QString& id) const
    {
        return jsonObject(m_server.request("GET", "/api/sandboxes/" + id));
    }
    QString status(const QString& id) const
    {
        const auto r = m_server.request("GET", "/api/sandboxes/" + id);
        return r.status == 200 ? jsonObject(r).value("status").toString()
                               : QString::number(r.status);
    }
    int post(const QString& id, const QString& what) const
    {
        return m_server.request("POST", "/api/sandboxes/" + id + "/" + what).status;
    }
    void kill(const QString& id) const { m_server.request("DELETE", "/api/sandboxes/" + id); }

private:
    const LocalServer& m_server;
};

} // namespace lizard::test
