#pragma once
// A big notebook and many of them: the longest event-loop stall while a 500-cell notebook opens
// and is scrolled top to bottom, and while the view switches between 10 open notebooks.

namespace lizard::bench {

// Prints the three figures; returns 0 when each was measured.
int runLargeNotebooks(int cells, int notebooks);

} // namespace lizard::bench
