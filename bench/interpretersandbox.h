#pragma once
// An interpreter sandbox in the server's first project, for benchmarks that run code: its id, or
// empty with *error.

#include "client/lizardapi.h"
#include "tests/support/apiwait.h"

#include <QString>

namespace lizard::bench {

inline QString createInterpreterSandbox(client::LizardApi& api, QString* error)
{
    using test::waitFor;
    const auto projects = waitFor<QList<client::Project>>(
        [&](QObject* ctx, auto done) { api.listProjects(ctx, std::move(done)); }, 60000);
    if (!projects || !projects->ok() || projects->value().isEmpty()) {
        *error = projects && !projects->ok() ? projects->error().toDisplayString()
                                             : QStringLiteral("no project");
        return {};
    }
    client::CreateSandboxRequest req;
    req.projectId = projects->value().first().id;
    req.templateName = QStringLiteral("interpreter");
    req.timeoutMs = 900000;
    const auto made = waitFor<client::SandboxInfo>(
        [&](QObject* ctx, auto done) { api.createSandbox(req, ctx, std::move(done)); }, 300000);
    if (!made || !made->ok()) {
        *error =
            made ? made->error().toDisplayString() : QStringLiteral("create sandbox: no answer");
        return {};
    }
    return made->value().sandboxId;
}

} // namespace lizard::bench
