#pragma once
// What the variable explorer shows: the user's variables in the notebook's kernel, as the code
// runner lists them (type, shape or length, size, a one-line preview; the full repr when one
// variable was asked for).

#include <QList>
#include <QString>

namespace lizard::notebook {

struct Variable
{
    QString name;
    QString type;
    QString shape;    // "3 × 4", "len 5" or ""
    qint64 size = -1; // bytes; -1 unknown
    QString preview;
    QString repr; // only for a single variable asked by name
};

struct VariableList
{
    bool kernel = false; // false: no live kernel (nothing ran yet, another language, disconnected)
    QList<Variable> variables;
    QString error; // non-empty: the listing failed (the kernel is busy or gone, the network)
};

} // namespace lizard::notebook
