#include "completebench.h"

#include "client/coderun/codeinterpreter.h"
#include "stats.h"
#include "tests/support/apiwait.h"

#include <cstdio>

namespace lizard::bench {

namespace {

using test::waitFor;
using test::waitUntil;

// What the user has typed when they press Tab: the cursor sits after "np.lins".
const QString kCode = QStringLiteral("x = np.lins");

} // namespace

Figure measureCompletion(client::CodeInterpreter& interp, int runs, double runCodeMs)
{
    Figure f{.name = "complete warm np.lins",
             .statistic = "median of " + std::to_string(runs),
             .unit = "ms",
             .target = 50};
    client::CodeRun* import = interp.runCode(QStringLiteral("import numpy as np"));
    waitUntil([import] { return import->isFinished(); }, 120000);
    if (!import->isFinished() || import->hasFailed() || import->execution().error) {
        f.error = import->hasFailed() ? import->failure()->toDisplayString().toStdString()
                                      : std::string("import numpy as np failed or took over 120 s");
        return f;
    }
    import->deleteLater();
    std::vector<double> samples;
    for (int i = 0; i < runs + 2;
         ++i) { // two to settle (the kernel's first completion imports jedi)
        const auto start = Clock::now();
        const auto got = waitFor<client::Completions>(
            [&](QObject* ctx, auto done) {
                interp.complete({}, QStringLiteral("python"), kCode, int(kCode.size()), ctx,
                                std::move(done));
            },
            60000);
        const double ms = msSince(start);
        if (!got || !got->ok()) {
            f.error = got ? got->error().toDisplayString().toStdString()
                          : std::string("no answer in 60 s");
            return f;
        }
        bool linspace = false;
        for (const client::CompletionMatch& m : got->value().matches)
            linspace = linspace || m.text == QLatin1String("linspace");
        if (!linspace) {
            f.error = "the kernel did not offer linspace (" +
                      std::to_string(got->value().matches.size()) + " matches)";
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
