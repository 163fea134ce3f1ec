#pragma once
// The one policy for a test that cannot get a sandbox. A developer's host may forbid user
// namespaces: there lizard-local answers 503 (USERNS_DISABLED and the like) and the test skips,
// saying why. CI sets LIZARD_REQUIRE_SANDBOXES=1: there the same answer is a failure, so a
// runtime that broke cannot pass as a row of skipped suites. Any other failure to create a
// sandbox is a failure everywhere.

#include <QString>
#include <QTest>

namespace lizard::test {

// LIZARD_REQUIRE_SANDBOXES=1 in the environment (CI sets it).
bool sandboxesRequired();

// Reports that no sandbox could be had: a skip when the host lacks sandboxes and they are
// not required, else a failure. `why` says what happened. The caller must return.
void reportNoSandbox(bool hostLacksSandboxes, const QString& why, const char* file, int line);

} // namespace lizard::test

// In a test function: reports (see reportNoSandbox) and returns from the function.
#define LIZ_NO_SANDBOX(hostLacksSandboxes, why)                                                    \
    do {                                                                                           \
        ::lizard::test::reportNoSandbox((hostLacksSandboxes), (why), __FILE__, __LINE__);          \
        return;                                                                                    \
    } while (false)

// After a create that gave `id` (empty on failure) with `why` its reason, "HTTP 503: ..." when
// the server has no sandboxes here (createSandbox() of server/support_http.h and startSandbox()
// of support/apiwait.h say it so): nothing when there is an id, else LIZ_NO_SANDBOX.
#define LIZ_REQUIRE_SANDBOX(id, why)                                                               \
    do {                                                                                           \
        if ((id).isEmpty())                                                                        \
            LIZ_NO_SANDBOX((why).startsWith(QLatin1String("HTTP 503")), (why));                    \
    } while (false)
