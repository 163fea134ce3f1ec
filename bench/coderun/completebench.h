#pragma once
// The "complete warm" figure: Tab completion's round trip to a warm Python kernel through the
// app's CodeInterpreter, beside the same run's runCode `1+1` as the reference.

#include "figure.h"

namespace lizard::client {
class CodeInterpreter;
}

namespace lizard::bench {

// `interp` has a warm default Python context (runCode ran in it). Imports numpy there, then
// times `runs` completions of `np.lins`; the median is the figure, p90 and max go in the note.
// `runCodeMs` (> 0) is the same run's warm 1+1 median, printed as the reference.
Figure measureCompletion(client::CodeInterpreter& interp, int runs, double runCodeMs);

} // namespace lizard::bench
