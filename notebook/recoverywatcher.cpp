#include "notebook/recoverywatcher.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QMutex>
#include <QPointer>
#include <QPromise>
#include <QThreadPool>
#include <atomic>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace lizard::notebook {

// What the background writes of one copy share with the watcher (and outlive it with).
struct RecoveryWatcher::Shared
{
    QMutex mutex; // one write of this copy at a time
    quint64 writtenRevision = 0;
    bool written = false;
    // Bumped when the copy is discarded: a write begun before that must not leave a copy.
    std::atomic<quint64> generation{0};
};

namespace {

using Result = RecoveryWatcher::Result;

struct Job
{
    RecoveryStore store;
    QString key;
    QString originalPath;
    NotebookData data;
    quint64 revision;
    quint64 generation;
};

template <class Shared> Result writeCopy(Shared& shared, const Job& job)
{
    QMutexLocker lock(&shared.mutex);
    if (shared.generation.load() != job.generation ||
        (shared.written && job.revision <= shared.writtenRevision))
        return {std::nullopt, true, job.revision};
    MaybeError error = job.store.write(job.key, job.originalPath, job.data);
    // Checked after the write: either discardCopy() already bumped the generation and we
    // remove what we wrote, or it bumps it later and removes the files itself.
    if (shared.generation.load() != job.generation) {
        job.store.remove(job.key);
        return {std::nullopt, true, job.revision};
    }
    if (!error) {
        shared.written = true;
        shared.writtenRevision = job.revision;
    }
    return {std::move(error), false, job.revision};
}

// One thread for the autosaves of every notebook, owned by the application (whose destruction
// waits for a write still running), and niced: writing a copy is background work, and on a busy
// machine the scheduler should run the UI thread first. Linux keeps a nice value per thread.
QThreadPool* autosavePool()
{
    static QPointer<QThreadPool> pool;
    if (!pool) {
        pool = new QThreadPool(QCoreApplication::instance());
        pool->setMaxThreadCount(1);
    }
    return pool;
}

void lowerThreadPriority()
{
#ifdef Q_OS_LINUX
    // Each time (one cheap syscall per copy written), not once per thread: a thread_local was the
    // only TLS of the executables that link this, and mold 1.10 (Debian 12) can place a lone
    // 1-byte .tbss outside every LOAD segment, so that ld.so fails to start them ("cannot apply
    // additional memory protection after relocation").
    setpriority(PRIO_PROCESS, id_t(gettid()), 10);
#endif
}

template <class Shared> QFuture<Result> startWrite(std::shared_ptr<Shared> shared, Job job)
{
    auto promise = std::make_shared<QPromise<Result>>();
    QFuture<Result> future = promise->future();
    promise->start();
    autosavePool()->start([promise, shared, job = std::move(job)] {
        lowerThreadPriority();
        promise->addResult(writeCopy(*shared, job));
        promise->finish();
    });
    return future;
}

} // namespace

RecoveryWatcher::RecoveryWatcher(const RecoveryStore& store, NotebookFile* file, QObject* parent)
    : QObject(parent), m_store(store), m_file(file), m_key(RecoveryStore::keyFor(file->path())),
      m_shared(std::make_shared<Shared>())
{
    m_timer.setInterval(defaultIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &RecoveryWatcher::flush);
    connect(&m_job, &QFutureWatcherBase::finished, this, &RecoveryWatcher::onWriteDone);
    connect(file->document(), &NotebookDocument::dirtyChanged, this,
            &RecoveryWatcher::onDirtyChanged);
    if (file->document()->isDirty())
        m_timer.start();
}

RecoveryWatcher::~RecoveryWatcher()
{
    if (m_closed || !m_file)
        return;
    const NotebookDocument* doc = m_file->document();
    const quint64 revision = doc->revision();
    if (!doc->isDirty() || (m_hasCopy && revision == m_writtenRevision) ||
        (m_writing && revision == m_writingRevision))
        return;
    // Nobody waits for this one: its result has no receiver, the copy is what counts.
    startWrite(m_shared, Job{m_store, m_key, m_file->path(), doc->toData(), revision,
                             m_shared->generation.load()});
}

void RecoveryWatcher::flush()
{
    if (m_closed || !m_file)
        return;
    NotebookDocument* doc = m_file->document();
    if (!doc->isDirty() || (m_hasCopy && doc->revision() == m_writtenRevision))
        return;
    if (m_writing) {
        m_pending = doc->revision() != m_writingRevision;
        return;
    }
    QElapsedTimer clock;
    clock.start();
    NotebookData data = doc->toData();
    m_snapshotNs = clock.nsecsElapsed();
    start(std::move(data), doc->revision());
}

void RecoveryWatcher::start(NotebookData data, quint64 revision)
{
    m_writing = true;
    m_pending = false;
    m_writingRevision = revision;
    m_writingGeneration = m_shared->generation.load();
    m_job.setFuture(startWrite(m_shared, Job{m_store, m_key, m_file->path(), std::move(data),
                                             revision, m_writingGeneration}));
}

void RecoveryWatcher::onWriteDone()
{
    m_writing = false;
    const Result result = m_job.future().resultCount() > 0 ? m_job.result() : Result{};
    const bool again = m_pending;
    m_pending = false;
    if (m_closed)
        return;
    // Discarded after the write finished but before we heard of it: that copy is gone.
    if (m_writingGeneration == m_shared->generation.load()) {
        if (result.error) {
            emit writeFailed(*result.error);
        } else if (!result.skipped) {
            m_hasCopy = true;
            m_writtenRevision = result.revision;
            emit written(recoveryFile());
        }
    }
    if (again)
        flush(); // edits made while it wrote: write them now rather than at the next tick
}

void RecoveryWatcher::waitForIdle()
{
    autosavePool()->waitForDone();
}

bool RecoveryWatcher::waitForWrites(int msecs)
{
    // An event loop, not a blocking wait: the UI thread stays responsive meanwhile.
    QDeadlineTimer deadline(msecs);
    while (m_writing || m_pending) {
        if (deadline.hasExpired())
            return false;
        QEventLoop loop;
        connect(&m_job, &QFutureWatcherBase::finished, &loop, &QEventLoop::quit,
                Qt::QueuedConnection);
        QTimer::singleShot(qMax<qint64>(1, qMin<qint64>(deadline.remainingTime(), 100)), &loop,
                           &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

void RecoveryWatcher::close()
{
    m_closed = true;
    m_pending = false;
    m_timer.stop();
    discardCopy();
}

void RecoveryWatcher::onDirtyChanged(bool dirty)
{
    if (m_closed)
        return;
    if (dirty) {
        m_timer.start();
    } else {
        m_timer.stop(); // saved: the file on disk is the truth again
        m_pending = false;
        discardCopy();
    }
}

void RecoveryWatcher::discardCopy()
{
    m_shared->generation.fetch_add(1);
    m_store.remove(m_key);
    if (m_hasCopy) {
        m_hasCopy = false;
        emit removed();
    }
}

} // namespace lizard::notebook
