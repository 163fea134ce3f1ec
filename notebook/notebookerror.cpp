#include "notebook/notebookerror.h"

#include <QStringList>

namespace lizard::notebook {

QString NotebookError::message() const
{
    QStringList parts;
    if (!file.isEmpty())
        parts << file;
    if (!where.isEmpty())
        parts << where;
    parts << what;
    return parts.join(QStringLiteral(": "));
}

} // namespace lizard::notebook
