#pragma once
// The whole text of a stream output that outgrew memory, as UTF-8 in a temporary file. The file
// only grows (append), so a reader that knows a length reads a stable prefix while the stream
// goes on. Shared by every copy of the output (snapshots for autosave, a viewer that is open);
// the file is removed when the last copy goes: outputs cleared, cell deleted, notebook closed.

#include <QByteArray>
#include <QFile>
#include <QString>
#include <atomic>
#include <memory>

namespace lizard::notebook {

class SpillFile
{
public:
    // A new empty file in directory() (private to the user). nullptr and *error on failure.
    static std::shared_ptr<SpillFile> create(QString* error);
    // The app's folder for these files: created on first use in the system temp folder and
    // removed with everything in it when the app exits. Its name carries the owner's pid and
    // start time (lizard-desktop-outputs-<pid>.<start>-XXXXXX), so a later start can tell the
    // folder of a crashed app from one of an app that still runs.
    static QString directory();
    // At start: removes the folders in tempDir left by apps that are gone (crashed or killed);
    // folders of running apps, this one's and anything else stay. Returns how many went.
    static int removeLeftovers(const QString& tempDir);

    ~SpillFile();
    SpillFile(const SpillFile&) = delete;
    SpillFile& operator=(const SpillFile&) = delete;

    QString path() const { return m_path; }
    // Bytes written so far. The writer is the UI thread; readers on any thread use a length
    // they were given, never more than this.
    qint64 size() const { return m_size.load(std::memory_order_acquire); }
    // Appends (unbuffered: once this returns, a reader on another thread sees the bytes).
    bool append(QByteArrayView bytes, QString* error);
    // Copies the first length bytes to a new spill file (a copy of the output that diverges).
    static std::shared_ptr<SpillFile> copyPrefix(const SpillFile& from, qint64 length,
                                                 QString* error);

private:
    explicit SpillFile(QString path);

    QString m_path;
    QFile m_file;
    std::atomic<qint64> m_size{0};
};

} // namespace lizard::notebook
