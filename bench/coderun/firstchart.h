#pragma once
// "New notebook → first chart": what a person waits for from New notebook (an interpreter
// sandbox created through the app's client) to the first `1+1` result and then to the first
// matplotlib chart, with the runs on the app's serve fast path. Pooled: the create claims the
// interpreter template's warm copy, whose kernel is pre-started; cold (size "small", which no
// pool keeps) is the reference measured in the same run.

#include "client/lizardapi.h"

#include <QString>

namespace lizard::bench {

struct FirstChart
{
    double createMs = 0, firstMs = 0, chartMs = 0; // each from the end of the step before
    double totalMs() const { return createMs + firstMs + chartMs; }
    QString error;
};

// Median of `runs` for each step; `pooled` waits (untimed) for the pool to hold a copy first.
FirstChart measureFirstChart(client::LizardApi& api, const QString& projectId, bool pooled,
                             int runs);

} // namespace lizard::bench
