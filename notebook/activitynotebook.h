#pragma once
// Notebook cells from a sandbox's activity log: a `runCode` entry (its code and the runner's
// events; server/api/DECISIONS.md "Activity log") becomes a code cell with typed outputs, and
// one context's runCode history a notebook. Used by the Activity tab (to show a run as a
// cell), by Open as notebook and by Export .ipynb.

#include "client/activitypage.h"
#include "notebook/celldata.h"

#include <QString>
#include <vector>

namespace lizard::notebook {

// The runner's events (stdout, stderr, result, update_display, clear_output, error) as a
// cell's outputs, in the order a notebook shows them.
OutputList outputsFromRunnerEvents(const QList<client::ActivityRunEvent>& events);

// A code cell: the entry's code, its outputs, and the execution count of its `done` event.
CellData cellFromRunCode(const client::ActivityEntry& entry);

// Which context a runCode entry ran in: its `context`, else the runner's default context of
// its language ("default-python").
QString activityContextId(const client::ActivityEntry& entry);
QString activityLanguage(const client::ActivityEntry& entry); // "python" unless it says otherwise

// The runCode entries of context `contextId`, oldest first, as a notebook (kernelspec of the
// context's language). Entries of other kinds or contexts are left out.
NotebookData notebookFromActivity(const std::vector<client::ActivityEntry>& entries,
                                  const QString& contextId);

} // namespace lizard::notebook
