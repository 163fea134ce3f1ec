#include "notebook/recoverywatcher.h"

namespace lizard::notebook {

RecoveryWatcher::RecoveryWatcher(const RecoveryStore& store, NotebookFile* file, QObject* parent)
    : QObject(parent), m_store(store), m_file(file), m_key(RecoveryStore::keyFor(file->path()))
{
    m_timer.setInterval(defaultIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, &RecoveryWatcher::flush);
    connect(file->document(), &NotebookDocument::dirtyChanged, this,
            &RecoveryWatcher::onDirtyChanged);
    if (file->document()->isDirty())
        m_timer.start();
}

void RecoveryWatcher::flush()
{
    if (m_closed || !m_file)
        return;
    NotebookDocument* doc = m_file->document();
    if (!doc->isDirty() || (m_hasCopy && doc->revision() == m_writtenRevision))
        return;
    if (MaybeError error = m_store.write(m_key, m_file->path(), doc->toData())) {
        emit writeFailed(*error);
        return;
    }
    m_hasCopy = true;
    m_writtenRevision = doc->revision();
    emit written(recoveryFile());
}

void RecoveryWatcher::close()
{
    m_closed = true;
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
        discardCopy();
    }
}

void RecoveryWatcher::discardCopy()
{
    m_store.remove(m_key);
    if (m_hasCopy) {
        m_hasCopy = false;
        emit removed();
    }
}

} // namespace lizard::notebook
