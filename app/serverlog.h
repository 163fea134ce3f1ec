#pragma once
// Reading what lizard-local printed at start-up: its address, its key file, and the
// capability notes it logs (what this host cannot do, e.g. enforce resource limits).

#include <QString>
#include <QStringList>

namespace lizard::app {

struct ServerAnnouncement
{
    QString version;
    QString url; // "http://127.0.0.1:7411"
    QString keyFile;
};

QString readServerLog(const QString& path); // the last 256 KiB, "" if unreadable
ServerAnnouncement parseAnnouncement(const QString& log);
QStringList capabilityNotes(const QString& log);

} // namespace lizard::app
