#include "notebook/celldata.h"

#include <QRegularExpression>
#include <QUuid>

namespace lizard::notebook {

QString newCellId()
{
    return QUuid::createUuid().toString(QUuid::Id128).left(8);
}

bool isValidCellId(const QString& id)
{
    static const QRegularExpression pattern(QStringLiteral("^[a-zA-Z0-9_-]{1,64}$"));
    return pattern.match(id).hasMatch();
}

} // namespace lizard::notebook
