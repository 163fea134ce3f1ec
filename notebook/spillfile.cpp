#include "notebook/spillfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QMutex>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTemporaryFile>

namespace lizard::notebook {

namespace {

struct SpillDirectory
{
    QMutex mutex;
    std::unique_ptr<QTemporaryDir> dir;
};
Q_GLOBAL_STATIC(SpillDirectory, g_spill)

const QLatin1String kPrefix("lizard-desktop-outputs-");

// Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); 0 when the process is
// gone or a zombie. With the pid it names one process: a pid reused later starts later.
qint64 startTimeOf(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')'); // the command name may hold spaces
    const QList<QByteArray> fields = line.mid(close + 2).split(' '); // [0] is field 3 (state)
    if (close < 0 || fields.size() < 20 || fields[0] == "Z")
        return 0;
    return fields[19].toLongLong();
}

} // namespace

QString SpillFile::directory()
{
    QMutexLocker lock(&g_spill->mutex);
    if (!g_spill->dir || !g_spill->dir->isValid()) {
        const qint64 pid = QCoreApplication::applicationPid();
        g_spill->dir = std::make_unique<QTemporaryDir>(QStringLiteral("%1/%2%3.%4-XXXXXX")
                                                           .arg(QDir::tempPath(), kPrefix)
                                                           .arg(pid)
                                                           .arg(startTimeOf(pid)));
    }
    return g_spill->dir->isValid() ? g_spill->dir->path() : QString();
}

int SpillFile::removeLeftovers(const QString& tempDir)
{
    static const QRegularExpression owned(QStringLiteral("^%1(\\d+)\\.(\\d+)-").arg(kPrefix));
    int removed = 0;
    const QDir dir(tempDir);
    for (const QString& name :
         dir.entryList({QString(kPrefix) + u'*'}, QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QRegularExpressionMatch m = owned.match(name);
        if (!m.hasMatch())
            continue; // not named by an owner: nothing tells whether its app still runs
        const qint64 pid = m.captured(1).toLongLong();
        const qint64 start = m.captured(2).toLongLong();
        // Without a start time (no /proc when it was made) only the pid can tell.
        const bool ownerRuns = start != 0 ? startTimeOf(pid) == start
                                          : QFile::exists(QStringLiteral("/proc/%1").arg(pid));
        if (ownerRuns)
            continue; // its app runs (this one, or another instance of the user's)
        if (QDir(dir.filePath(name)).removeRecursively())
            ++removed;
    }
    return removed;
}

SpillFile::SpillFile(QString path) : m_path(std::move(path)), m_file(m_path) {}

SpillFile::~SpillFile()
{
    m_file.close();
    QFile::remove(m_path);
}

std::shared_ptr<SpillFile> SpillFile::create(QString* error)
{
    const QString dir = directory();
    if (dir.isEmpty()) {
        *error = QStringLiteral("cannot create a folder in %1").arg(QDir::tempPath());
        return nullptr;
    }
    // QTemporaryFile only picks a free name (0600); this object owns and removes the file.
    QTemporaryFile name(dir + QStringLiteral("/stream-XXXXXX.txt"));
    name.setAutoRemove(false);
    if (!name.open()) {
        *error = name.errorString();
        return nullptr;
    }
    const QString path = name.fileName();
    name.close();
    std::shared_ptr<SpillFile> file(new SpillFile(path));
    if (!file->m_file.open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered)) {
        *error = file->m_file.errorString();
        return nullptr;
    }
    return file;
}

bool SpillFile::append(QByteArrayView bytes, QString* error)
{
    if (bytes.isEmpty())
        return true;
    const qint64 n = m_file.write(bytes.data(), bytes.size());
    if (n != bytes.size()) {
        *error = m_file.errorString();
        // Whatever went out is not counted: readers never see a partial chunk as text.
        if (n > 0)
            m_file.resize(size());
        return false;
    }
    m_size.fetch_add(n, std::memory_order_release);
    return true;
}

std::shared_ptr<SpillFile> SpillFile::copyPrefix(const SpillFile& from, qint64 length,
                                                 QString* error)
{
    std::shared_ptr<SpillFile> copy = create(error);
    if (!copy)
        return nullptr;
    QFile in(from.path());
    if (!in.open(QIODevice::ReadOnly)) {
        *error = in.errorString();
        return nullptr;
    }
    QByteArray buffer;
    for (qint64 left = length; left > 0;) {
        buffer = in.read(qMin<qint64>(left, 1 << 20));
        if (buffer.isEmpty()) {
            *error = QStringLiteral("%1 is shorter than expected").arg(from.path());
            return nullptr;
        }
        if (!copy->append(buffer, error))
            return nullptr;
        left -= buffer.size();
    }
    return copy;
}

} // namespace lizard::notebook
