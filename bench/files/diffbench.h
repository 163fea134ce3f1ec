#pragma once
// The Changes tab's side-by-side view of a 1 MB text file with 1 % of its lines changed: the
// time to show it and the longest event-loop stall, beside GNU diff -u of the same two files.

namespace lizard::bench {

// Prints the figure; false when it could not be measured.
bool measureDiffView();

} // namespace lizard::bench
