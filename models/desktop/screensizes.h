#pragma once
// The screen sizes the app offers for a desktop (the Screen tab, the New sandbox dialog): sizes
// people pick for a browser-driving agent, the first the server's default. The server takes any
// size in 640–3840 × 480–2160.

#include <QList>
#include <QSize>
#include <QString>

namespace lizard::models {

inline QList<QSize> screenSizes()
{
    return {{1280, 800}, {1024, 768},  {1366, 768}, {1440, 900},
            {1600, 900}, {1920, 1080}, {800, 600}};
}

inline QString screenSizeText(QSize s)
{
    return QStringLiteral("%1 × %2").arg(s.width()).arg(s.height());
}

} // namespace lizard::models
