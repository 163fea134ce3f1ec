#pragma once
// The "variables (200)" figure: the variable explorer's silent listing of 200 user variables
// through the app's CodeInterpreter, beside the same run's runCode `1+1` as the reference.

#include "figure.h"

namespace lizard::client {
class CodeInterpreter;
}

namespace lizard::bench {

// `interp` has a warm default Python context. Defines 200 variables of common kinds there
// (ints, floats, strings, lists, dicts, numpy arrays when numpy is there), then times `runs`
// listings; the median is the figure, p90 and max go in the note.
Figure measureVariables(client::CodeInterpreter& interp, int runs, double runCodeMs);

} // namespace lizard::bench
