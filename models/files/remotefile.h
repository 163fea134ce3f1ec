#pragma once
// A file of a sandbox opened whole in the app (the text editor, the image viewer): read after a
// look at what the path is, and written back with the check that nobody changed it meanwhile (a
// command in the console, a program in the sandbox). The baseline is the stat the sandbox gave
// when the bytes were read or last written.

#include "client/outcome.h"

#include <QObject>
#include <QPointer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models::files {

class RemoteFile : public QObject
{
    Q_OBJECT
public:
    // What open() found: its stat, and the bytes when it is a file of at most maxBytes.
    struct Opened
    {
        client::FileEntry entry;
        QByteArray content;
        bool read = false; // false: a directory, or a file larger than maxBytes
    };
    static void open(client::LizardApi* api, const QString& sandboxId, const QString& path,
                     qint64 maxBytes, QObject* ctx, client::Done<Opened> done);

    // entry: the file as the sandbox described it when its bytes were read.
    RemoteFile(client::LizardApi* api, const QString& sandboxId, const client::FileEntry& entry,
               QObject* parent = nullptr);

    const QString& sandboxId() const { return m_sandboxId; }
    const client::FileEntry& entry() const { return m_entry; }

    // Why the file in the sandbox is not the one opened any more: deleted, or another size or
    // modification time. Empty: unchanged.
    void checkUnchanged(client::Done<QString> done);
    // Both answer only while this object lives (make it a child of its view).
    // Writes `bytes`, then takes the sandbox's new stat as the baseline.
    void save(const QByteArray& bytes, client::Done<client::FileEntry> done);

private:
    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    client::FileEntry m_entry;
};

} // namespace lizard::models::files
