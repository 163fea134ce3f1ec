#include "firstchart.h"

#include "client/coderun/codeinterpreter.h"
#include "stats.h"
#include "tests/support/apiwait.h"

#include <QThread>
#include <algorithm>
#include <vector>

namespace lizard::bench {

namespace {

using test::waitFor;
using test::waitUntil;

const QString kChart =
    QStringLiteral("import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()");

bool interpreterPoolReady(client::LizardApi& api)
{
    const auto pools = waitFor<QList<client::TemplatePool>>(
        [&](QObject* ctx, auto done) { api.listTemplatePools(ctx, std::move(done)); }, 10000);
    if (!pools || !pools->ok())
        return false;
    const auto& list = pools->value();
    return std::any_of(list.begin(), list.end(), [](const client::TemplatePool& p) {
        return p.name == QLatin1String("interpreter") && p.readyCount >= 1;
    });
}

// One timed run: the create, then 1+1, then the chart. Empty error when all three worked.
QString timedRun(client::LizardApi& api, const QString& projectId, bool pooled, double& createMs,
                 double& firstMs, double& chartMs)
{
    client::CreateSandboxRequest req;
    req.projectId = projectId;
    req.templateName = QStringLiteral("interpreter");
    req.timeoutMs = 300000;
    if (!pooled)
        req.size = QStringLiteral("small");
    auto start = Clock::now();
    const auto made = waitFor<client::SandboxInfo>(
        [&](QObject* ctx, auto done) { api.createSandbox(req, ctx, std::move(done)); }, 120000);
    createMs = msSince(start);
    if (!made || !made->ok())
        return made ? made->error().toDisplayString() : QStringLiteral("create: no answer");
    const QString id = made->value().sandboxId;
    QString error;
    if (made->value().fromPool != pooled)
        error = pooled ? QStringLiteral("the create did not claim a warm copy")
                       : QStringLiteral("the small create came from a pool");
    {
        client::CodeInterpreter interp(&api, id);
        for (auto [code, ms] : {std::pair{QStringLiteral("1+1"), &firstMs}, {kChart, &chartMs}}) {
            if (!error.isEmpty())
                break;
            start = Clock::now();
            client::CodeRun* run = interp.runCode(code);
            waitUntil([run] { return run->isFinished(); }, 120000);
            *ms = msSince(start);
            const client::Execution e = run->execution();
            if (!run->isFinished() || run->hasFailed() || e.error)
                error = code + QStringLiteral(": ") +
                        (run->hasFailed() ? run->failure()->toDisplayString()
                         : e.error        ? e.error->name + QStringLiteral(": ") + e.error->message
                                          : QStringLiteral("no answer in time"));
            else if (code == kChart &&
                     std::none_of(e.results.begin(), e.results.end(), [](const auto& r) {
                         return r.mime == QLatin1String("image/png");
                     }))
                error = QStringLiteral("the chart cell gave no PNG");
        }
    }
    waitFor<client::Unit>(
        [&](QObject* ctx, auto done) { api.killSandbox(id, ctx, std::move(done)); }, 30000);
    return error;
}

} // namespace

FirstChart measureFirstChart(client::LizardApi& api, const QString& projectId, bool pooled,
                             int runs)
{
    FirstChart f;
    std::vector<double> creates, firsts, charts;
    for (int i = 0; i < runs; ++i) {
        if (pooled && !waitUntil([&] { return interpreterPoolReady(api); }, 90000, 100)) {
            f.error = QStringLiteral("the interpreter pool holds no copy (is it on?)");
            return f;
        }
        double c = 0, a = 0, b = 0;
        f.error = timedRun(api, projectId, pooled, c, a, b);
        if (!f.error.isEmpty())
            return f;
        creates.push_back(c);
        firsts.push_back(a);
        charts.push_back(b);
    }
    f.createMs = median(creates);
    f.firstMs = median(firsts);
    f.chartMs = median(charts);
    return f;
}

} // namespace lizard::bench
