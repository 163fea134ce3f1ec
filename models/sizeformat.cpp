#include "models/sizeformat.h"

namespace lizard::models {

QString formatBytes(qint64 bytes)
{
    if (bytes < 1024)
        return QStringLiteral("%1 B").arg(bytes);
    static const char* const units[] = {"KB", "MB", "GB", "TB"};
    double value = double(bytes);
    int unit = -1;
    while (value >= 1024 && unit < 3) {
        value /= 1024;
        ++unit;
    }
    // One decimal below 10, none above: "1.5 KB", "100 MB".
    const int decimals = value < 10 ? 1 : 0;
    QString number = QString::number(value, 'f', decimals);
    if (number.endsWith(QLatin1String(".0")))
        number.chop(2);
    return number + QLatin1Char(' ') + QLatin1String(units[unit]);
}

} // namespace lizard::models
