#pragma once
// The kinds of cell and the states a cell goes through when it runs.

#include <QObject>
#include <QString>

namespace lizard::notebook {
Q_NAMESPACE

enum class CellType { Code, Markdown, Raw };
Q_ENUM_NS(CellType)

// Idle: never run (or reset); Queued: waiting in the run queue; Running: sent to the runner;
// Done: ran without error (markdown: rendered); Error: the code raised or the run failed;
// Interrupted: the user stopped it while it ran.
enum class CellStatus { Idle, Queued, Running, Done, Error, Interrupted };
Q_ENUM_NS(CellStatus)

// nbformat's "cell_type" strings.
QString cellTypeName(CellType type);
bool cellTypeFromName(const QString& name, CellType* type);

} // namespace lizard::notebook
