#include "notebook/spillfile.h"

#include <QDir>
#include <QMutex>
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

} // namespace

QString SpillFile::directory()
{
    QMutexLocker lock(&g_spill->mutex);
    if (!g_spill->dir || !g_spill->dir->isValid())
        g_spill->dir = std::make_unique<QTemporaryDir>(
            QDir::tempPath() + QStringLiteral("/lizard-desktop-outputs-XXXXXX"));
    return g_spill->dir->isValid() ? g_spill->dir->path() : QString();
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
