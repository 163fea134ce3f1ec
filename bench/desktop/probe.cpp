#include "probe.h"

#include "processmemory.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QFile>
#include <QTimer>
#include <QWidget>
#include <unistd.h>

namespace lizard::bench {

namespace {

bool isBlack(QRgb c)
{
    return qRed(c) <= 8 && qGreen(c) <= 8 && qBlue(c) <= 8;
}

// utime + stime of one process, in clock ticks (fields 14 and 15 of /proc/PID/stat).
qint64 cpuTicks(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray stat = f.readAll();
    const qsizetype close = stat.lastIndexOf(')');
    const QList<QByteArray> rest = stat.mid(close + 2).split(' ');
    return rest.size() > 12 ? rest[11].toLongLong() + rest[12].toLongLong() : 0;
}

} // namespace

double msOf(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

QImage GrabPoller::grab()
{
    QElapsedTimer t;
    t.start();
    QImage image = m_widget->grab().toImage().convertToFormat(QImage::Format_RGB32);
    m_grabMs += msOf(t);
    ++m_grabs;
    m_last = image;
    return image;
}

double GrabPoller::pollUntil(const QElapsedTimer& since,
                             const std::function<bool(const QImage&)>& test, int timeoutMs,
                             int intervalMs)
{
    double found = -1;
    QEventLoop loop;
    QTimer tick;
    tick.setTimerType(Qt::PreciseTimer);
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        const double at = msOf(since);
        if (test(grab())) {
            found = at;
            loop.quit();
        } else if (at > timeoutMs) {
            loop.quit();
        }
    });
    tick.start(intervalMs);
    loop.exec();
    return found;
}

bool centreShowsDesktop(const QImage& grab)
{
    // Most of a block at the centre: the pointer starts there and may be drawn into the screen.
    const QPoint c = grab.rect().center();
    int black = 0, all = 0;
    for (int y = c.y() - 20; y <= c.y() + 20; ++y)
        for (int x = c.x() - 20; x <= c.x() + 20; ++x, ++all)
            black += grab.valid(x, y) && isBlack(grab.pixel(x, y));
    return black * 100 >= all * 85;
}

QRect desktopRect(const QImage& grab)
{
    // Along lines 30 px off the middle ones, clear of a pointer left at the centre.
    const QPoint c = grab.rect().center() - QPoint(30, 30);
    int left = c.x(), right = c.x(), top = c.y(), bottom = c.y();
    while (left > 0 && isBlack(grab.pixel(left - 1, c.y())))
        --left;
    while (right < grab.width() - 1 && isBlack(grab.pixel(right + 1, c.y())))
        ++right;
    while (top > 0 && isBlack(grab.pixel(c.x(), top - 1)))
        --top;
    while (bottom < grab.height() - 1 && isBlack(grab.pixel(c.x(), bottom + 1)))
        ++bottom;
    return QRect(QPoint(left, top), QPoint(right, bottom));
}

bool regionChanged(const QImage& grab, const QRect& region, const QImage& before)
{
    // A menu is a block of new pixels; a few pixels of scaling noise are not a change.
    int changed = 0;
    for (int y = 0; y < region.height(); ++y)
        for (int x = 0; x < region.width(); ++x) {
            const QRgb a = grab.pixel(region.x() + x, region.y() + y), b = before.pixel(x, y);
            if (qAbs(qRed(a) - qRed(b)) + qAbs(qGreen(a) - qGreen(b)) + qAbs(qBlue(a) - qBlue(b)) >
                48)
                ++changed;
        }
    return changed * 10 >= region.width() * region.height();
}

double treeCpuMs()
{
    const qint64 self = QCoreApplication::applicationPid();
    qint64 ticks = cpuTicks(self);
    for (qint64 pid : descendantsOf(self))
        ticks += cpuTicks(pid);
    return double(ticks) * 1000.0 / double(sysconf(_SC_CLK_TCK));
}

} // namespace lizard::bench
