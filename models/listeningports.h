#pragma once
// Which TCP ports processes in a sandbox listen on, read from inside the sandbox: the scan
// command prints /proc/net/tcp, /proc/net/tcp6, the socket inodes of every process' open
// files and the processes' names; parsePortScan turns that text into one entry per port.

#include <QList>
#include <QString>
#include <QStringList>

namespace lizard::models {

struct ListeningPort
{
    int port = 0;
    QStringList addresses; // local addresses it listens on, e.g. "0.0.0.0", "::", "127.0.0.1"
    int pid = 0;           // 0: not known (the socket's owner was not found)
    QString process;       // the owner's name (/proc/PID/comm), empty when not known
    bool operator==(const ListeningPort&) const = default;
};

// One LISTEN line of /proc/net/tcp or /proc/net/tcp6.
struct ListenSocket
{
    int port = 0;
    QString address;
    quint64 inode = 0;
};

// The argv to run in the sandbox (a POSIX shell script; needs find and grep, as in every
// template). Its output is what parsePortScan reads.
QStringList portScanCommand();

// The LISTEN sockets (state 0A) of a /proc/net/tcp or /proc/net/tcp6 text; other states,
// the header and malformed lines are skipped.
QList<ListenSocket> parseProcNetTcp(const QString& text);

// "0100007F" → "127.0.0.1"; 32 hex digits → the IPv6 text form ("::1", "::ffff:127.0.0.1");
// empty for anything else. /proc prints each 32-bit word in the host's (little-endian) order.
QString procNetAddress(const QString& hex);

// The whole scan output → listening ports sorted by port, IPv4 and IPv6 sockets of one port merged.
QList<ListeningPort> parsePortScan(const QString& output);

} // namespace lizard::models
