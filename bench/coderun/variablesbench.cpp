#include "variablesbench.h"

#include "client/coderun/codeinterpreter.h"
#include "stats.h"
#include "tests/support/apiwait.h"

namespace lizard::bench {

namespace {

using test::waitFor;
using test::waitUntil;

// 200 variables of the kinds a notebook holds, 40 of each.
const QString kDefine =
    QStringLiteral("try:\n"
                   "    import numpy as _np\n"
                   "except ImportError:\n"
                   "    _np = None\n"
                   "for _i in range(40):\n"
                   "    globals()['n%02d' % _i] = _i * 1000\n"
                   "    globals()['t%02d' % _i] = 'text %d ' % _i * 10\n"
                   "    globals()['l%02d' % _i] = list(range(_i * 100))\n"
                   "    globals()['d%02d' % _i] = {'k%d' % j: j for j in range(_i)}\n"
                   "    globals()['a%02d' % _i] = _np.arange(_i * 10.0) if _np else _i / 7\n"
                   "del _i, _np\n");

} // namespace

Figure measureVariables(client::CodeInterpreter& interp, int runs, double runCodeMs)
{
    Figure f{.name = "variables (200)",
             .statistic = "median of " + std::to_string(runs),
             .unit = "ms",
             .target = 20};
    client::CodeRun* define = interp.runCode(kDefine);
    waitUntil([define] { return define->isFinished(); }, 120000);
    if (!define->isFinished() || define->hasFailed() || define->execution().error) {
        f.error = define->hasFailed()
                      ? define->failure()->toDisplayString().toStdString()
                      : std::string("defining 200 variables failed or took over 120 s");
        return f;
    }
    define->deleteLater();
    std::vector<double> samples;
    for (int i = 0; i < runs + 2; ++i) { // two to settle
        const auto start = Clock::now();
        const auto got = waitFor<client::VariableListing>(
            [&](QObject* ctx, auto done) {
                interp.listVariables({}, QStringLiteral("python"), {}, ctx, std::move(done));
            },
            60000);
        const double ms = msSince(start);
        if (!got || !got->ok()) {
            f.error = got ? got->error().toDisplayString().toStdString()
                          : std::string("no answer in 60 s");
            return f;
        }
        if (got->value().variables.size() != 200) {
            f.error =
                "listed " + std::to_string(got->value().variables.size()) + " variables, not 200";
            return f;
        }
        if (i >= 2)
            samples.push_back(ms);
    }
    f.value = median(samples);
    if (runCodeMs > 0)
        f.reference = Reference{"runCode warm 1+1 (same run)", runCodeMs};
    f.note = spreadNote(samples);
    return f;
}

} // namespace lizard::bench
