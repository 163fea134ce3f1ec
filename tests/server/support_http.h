#pragma once
// Small helpers shared by the lizard-local API suites (JSON of answers, sandbox creation).

#include "support/localserver.h"
#include "support/sandboxpolicy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

namespace lizard::test {

inline QJsonObject jsonObject(const LocalServer::Response& r)
{
    return QJsonDocument::fromJson(r.body).object();
}

inline QJsonArray jsonArray(const LocalServer::Response& r)
{
    return QJsonDocument::fromJson(r.body).array();
}

// Entry `i` of a fork's answer: the copy's sandbox object ({} when that entry is an error).
inline QJsonObject forkedSandbox(const LocalServer::Response& r, int i = 0)
{
    return jsonArray(r).at(i).toObject().value("sandbox").toObject();
}

inline QByteArray toJson(const QJsonObject& o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

// The uniform error shape: {"error": CODE, "code": CODE, "message": "..."}.
inline bool isError(const LocalServer::Response& r, int status, const QString& code)
{
    const QJsonObject o = jsonObject(r);
    return r.status == status && o.value("error").toString() == code &&
           o.value("code").toString() == code && !o.value("message").toString().isEmpty();
}

inline QString describe(const LocalServer::Response& r)
{
    return QStringLiteral("HTTP %1: %2").arg(r.status).arg(QString::fromUtf8(r.body.left(600)));
}

// Creates a sandbox and returns its id (empty on failure, with the reason in *why).
inline QString createSandbox(const LocalServer& server, const QJsonObject& body = {},
                             QString* why = nullptr)
{
    const auto r = server.request("POST", "/api/sandboxes", toJson(body));
    if (r.status != 200) {
        if (why)
            *why = describe(r);
        return {};
    }
    return jsonObject(r).value("sandboxId").toString();
}

} // namespace lizard::test

// In a test function, after a create answered `response`: unless it is 200, skips or fails
// (503 is a host without sandboxes; support/sandboxpolicy.h) and returns.
#define LIZ_REQUIRE_CREATED(response)                                                              \
    do {                                                                                           \
        const ::lizard::test::LocalServer::Response& liz_created_ = (response);                    \
        if (liz_created_.status != 200)                                                            \
            LIZ_NO_SANDBOX(liz_created_.status == 503, ::lizard::test::describe(liz_created_));    \
    } while (false)
