#include "notebook/celltypes.h"

namespace lizard::notebook {

QString cellTypeName(CellType type)
{
    switch (type) {
    case CellType::Code:
        return QStringLiteral("code");
    case CellType::Markdown:
        return QStringLiteral("markdown");
    case CellType::Raw:
        return QStringLiteral("raw");
    }
    return QStringLiteral("code");
}

bool cellTypeFromName(const QString& name, CellType* type)
{
    for (CellType t : {CellType::Code, CellType::Markdown, CellType::Raw}) {
        if (name == cellTypeName(t)) {
            *type = t;
            return true;
        }
    }
    return false;
}

} // namespace lizard::notebook
