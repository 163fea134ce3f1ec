#include "models/listeningports.h"

#include <QHash>
#include <QMap>
#include <QRegularExpression>
#include <array>

namespace lizard::models {

namespace {

const QString kTcp = QStringLiteral("#lizard-tcp");
const QString kTcp6 = QStringLiteral("#lizard-tcp6");
const QString kSockets = QStringLiteral("#lizard-sockets");
const QString kComm = QStringLiteral("#lizard-comm");

// The four bytes of one 8-hex-digit word as /proc prints it (little-endian host order).
bool wordBytes(QStringView hex, quint8* out)
{
    bool ok = false;
    const quint32 v = hex.toUInt(&ok, 16);
    if (!ok)
        return false;
    for (int i = 0; i < 4; ++i)
        out[i] = quint8((v >> (8 * i)) & 0xff);
    return true;
}

QString ipv4(const quint8* b)
{
    return QStringLiteral("%1.%2.%3.%4")
        .arg(int(b[0]))
        .arg(int(b[1]))
        .arg(int(b[2]))
        .arg(int(b[3]));
}

// RFC 5952 text: lower-case hex, the longest run (2 or more) of zero groups as "::".
QString ipv6(const std::array<quint8, 16>& b)
{
    bool mapped = true;
    for (int i = 0; i < 10; ++i)
        mapped = mapped && b[i] == 0;
    if (mapped && b[10] == 0xff && b[11] == 0xff)
        return QStringLiteral("::ffff:") + ipv4(b.data() + 12);
    std::array<int, 8> g{};
    for (int i = 0; i < 8; ++i)
        g[i] = (b[2 * i] << 8) | b[2 * i + 1];
    int bestStart = -1, bestLen = 0;
    for (int i = 0; i < 8;) {
        if (g[i] != 0) {
            ++i;
            continue;
        }
        int j = i;
        while (j < 8 && g[j] == 0)
            ++j;
        if (j - i > bestLen && j - i >= 2) {
            bestStart = i;
            bestLen = j - i;
        }
        i = j;
    }
    QString out;
    for (int i = 0; i < 8; ++i) {
        if (i == bestStart) {
            out += QStringLiteral("::");
            i += bestLen - 1;
            continue;
        }
        if (!out.isEmpty() && !out.endsWith(QLatin1Char(':')))
            out += QLatin1Char(':');
        out += QString::number(g[i], 16);
    }
    return out;
}

// Splits the scan output into its four sections.
QHash<QString, QStringList> sections(const QString& output)
{
    QHash<QString, QStringList> out;
    QString current;
    for (const QString& line : output.split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        if (trimmed == kTcp || trimmed == kTcp6 || trimmed == kSockets || trimmed == kComm) {
            current = trimmed;
            continue;
        }
        if (!current.isEmpty() && !trimmed.isEmpty())
            out[current].append(line);
    }
    return out;
}

} // namespace

QStringList portScanCommand()
{
    // Markers are printed even when a file is missing (no IPv6), so sections never mix. They
    // are quoted: an unquoted # would start a shell comment.
    const QString script =
        QStringLiteral("echo '%1'; cat /proc/net/tcp 2>/dev/null; "
                       "echo '%2'; cat /proc/net/tcp6 2>/dev/null; "
                       "echo '%3'; find /proc/[0-9]*/fd -maxdepth 1 -lname 'socket:*' -printf '%p "
                       "%l\\n' 2>/dev/null; "
                       "echo '%4'; grep -H '' /proc/[0-9]*/comm 2>/dev/null; true")
            .arg(kTcp, kTcp6, kSockets, kComm);
    return {QStringLiteral("/bin/sh"), QStringLiteral("-c"), script};
}

QString procNetAddress(const QString& hex)
{
    if (hex.size() == 8) {
        std::array<quint8, 4> b{};
        return wordBytes(hex, b.data()) ? ipv4(b.data()) : QString();
    }
    if (hex.size() == 32) {
        std::array<quint8, 16> b{};
        for (int w = 0; w < 4; ++w)
            if (!wordBytes(QStringView(hex).mid(8 * w, 8), b.data() + 4 * w))
                return {};
        return ipv6(b);
    }
    return {};
}

QList<ListenSocket> parseProcNetTcp(const QString& text)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    QList<ListenSocket> out;
    for (const QString& line : text.split(QLatin1Char('\n'))) {
        const QStringList f = line.trimmed().split(space, Qt::SkipEmptyParts);
        // sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...
        if (f.size() < 10 || !f[0].endsWith(QLatin1Char(':')) || f[3] != QLatin1String("0A"))
            continue;
        const qsizetype colon = f[1].indexOf(QLatin1Char(':'));
        if (colon < 0)
            continue;
        bool portOk = false, inodeOk = false;
        const int port = f[1].mid(colon + 1).toInt(&portOk, 16);
        const QString address = procNetAddress(f[1].left(colon));
        const quint64 inode = f[9].toULongLong(&inodeOk);
        if (!portOk || port <= 0 || port > 65535 || address.isEmpty())
            continue;
        out.append({port, address, inodeOk ? inode : 0});
    }
    return out;
}

QList<ListeningPort> parsePortScan(const QString& output)
{
    const auto parts = sections(output);
    QList<ListenSocket> sockets = parseProcNetTcp(parts.value(kTcp).join(QLatin1Char('\n')));
    sockets += parseProcNetTcp(parts.value(kTcp6).join(QLatin1Char('\n')));

    // "/proc/12/fd/3 socket:[4567]" → inode 4567 belongs to pid 12.
    static const QRegularExpression socketRe(
        QStringLiteral("^/proc/(\\d+)/fd/\\d+ socket:\\[(\\d+)\\]$"));
    QHash<quint64, int> owner;
    for (const QString& line : parts.value(kSockets)) {
        const auto m = socketRe.match(line.trimmed());
        if (m.hasMatch() && !owner.contains(m.captured(2).toULongLong()))
            owner.insert(m.captured(2).toULongLong(), m.captured(1).toInt());
    }
    // "/proc/12/comm:python3"
    static const QRegularExpression commRe(QStringLiteral("^/proc/(\\d+)/comm:(.*)$"));
    QHash<int, QString> names;
    for (const QString& line : parts.value(kComm)) {
        const auto m = commRe.match(line);
        if (m.hasMatch())
            names.insert(m.captured(1).toInt(), m.captured(2).trimmed());
    }

    QMap<int, ListeningPort> byPort;
    for (const ListenSocket& s : sockets) {
        ListeningPort& p = byPort[s.port];
        p.port = s.port;
        if (!p.addresses.contains(s.address))
            p.addresses.append(s.address);
        const int pid = s.inode ? owner.value(s.inode) : 0;
        if (p.pid == 0 && pid != 0) {
            p.pid = pid;
            p.process = names.value(pid);
        }
    }
    return byPort.values();
}

} // namespace lizard::models
