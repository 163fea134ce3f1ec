#pragma once
// The runner's `list_variables` answer (the notebook's variable explorer): the user's variables
// in a Python context with their type, shape or length, size in memory and a short preview; or,
// asked for one name, that variable with its full repr (capped by the runner).

#include "client/jsonreader.h"

#include <QList>
#include <QString>
#include <nlohmann/json.hpp>

namespace lizard::client {

struct VariableInfo
{
    QString name;
    QString type;     // int, list, numpy.ndarray, pandas.DataFrame, ...
    QString shape;    // "3 × 4", "len 5" or "" (scalars and objects without a length)
    qint64 size = -1; // bytes (sys.getsizeof, nbytes, memory_usage); -1 unknown
    QString preview;  // one line, at most ~80 characters
    QString repr;     // only when one variable was asked for
};

struct VariableListing
{
    bool kernel = false; // false: no live kernel in the context (nothing ran yet, or not Python)
    QList<VariableInfo> variables;
};

// The request: `contextId` empty means the default context of `language`; `name` non-empty asks
// for that one variable with its full repr.
nlohmann::json variablesRequest(const QString& contextId, const QString& language,
                                const QString& name = {});
// A field of the wrong type throws JsonShapeError (CodeInterpreter makes it the call's error).
VariableListing toVariableListing(const JsonReader& answer);

} // namespace lizard::client
