#pragma once
// What the host may still hold for a sandbox of lizard-local after it ended: a mount of its
// disk image (as root), the loop device of that image, its cgroups. Tests of tear-down read
// them from the kernel's own lists, whoever ended the sandbox.

#include <QDeadlineTimer>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QStringList>
#include <QTest>

namespace lizard::test {

// Mount points at or below `dir`.
inline QStringList mountsUnder(const QString& dir)
{
    QFile f("/proc/self/mountinfo");
    QStringList out;
    if (!f.open(QIODevice::ReadOnly))
        return {"cannot read /proc/self/mountinfo"};
    for (const QByteArray& line : f.readAll().split('\n')) {
        const QString point = QString::fromUtf8(line.split(' ').value(4)).replace("\\040", " ");
        if (point == dir || point.startsWith(dir + "/"))
            out << point;
    }
    return out;
}

// Loop devices whose backing file's path starts with `prefix` (deleted or not).
inline QStringList loopDevicesOn(const QString& prefix)
{
    QStringList out;
    for (const QString& loop : QDir("/sys/block").entryList({"loop*"})) {
        QFile f("/sys/block/" + loop + "/loop/backing_file");
        if (f.open(QIODevice::ReadOnly) && f.readAll().startsWith(prefix.toUtf8()))
            out << "/dev/" + loop;
    }
    return out;
}

// Cgroup directories named `id`, in whichever hierarchies the host has.
inline QStringList cgroupsNamed(const QString& id)
{
    QStringList out;
    QDirIterator it("/sys/fs/cgroup", {id}, QDir::Dirs | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        out << it.next();
    return out;
}

// What the host still holds for sandbox `id` of the server on `dataDir`.
inline QStringList hostLeftovers(const QString& dataDir, const QString& id)
{
    return mountsUnder(dataDir + "/sandboxes/" + id) +
           loopDevicesOn(dataDir + "/disks/" + id + ".img") + cgroupsNamed(id);
}

// Waits (bounded) until nothing of `id` is left on the host; answers what is left.
inline QStringList waitForNoLeftovers(const QString& dataDir, const QString& id)
{
    QStringList left = hostLeftovers(dataDir, id);
    for (QDeadlineTimer deadline(10000); !left.isEmpty() && !deadline.hasExpired();) {
        QTest::qWait(100);
        left = hostLeftovers(dataDir, id);
    }
    return left;
}

} // namespace lizard::test
