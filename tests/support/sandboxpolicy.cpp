#include "support/sandboxpolicy.h"

namespace lizard::test {

bool sandboxesRequired()
{
    return qEnvironmentVariable("LIZARD_REQUIRE_SANDBOXES") == QLatin1String("1");
}

void reportNoSandbox(bool hostLacksSandboxes, const QString& why, const char* file, int line)
{
    if (hostLacksSandboxes && !sandboxesRequired()) {
        const QString msg = "this host cannot create sandboxes: " + why;
        QTest::qSkip(qPrintable(msg), file, line);
        return;
    }
    const QString msg = hostLacksSandboxes
                            ? "this host cannot create sandboxes, and LIZARD_REQUIRE_SANDBOXES=1 "
                              "requires them: " +
                                  why
                            : "creating a sandbox failed: " + why;
    QTest::qFail(qPrintable(msg), file, line);
}

} // namespace lizard::test
