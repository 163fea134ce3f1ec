#pragma once
// Tells a stalled stream from a quiet one. A server that promises keep-alives
// (X-Lizard-Keepalive-Ms, lizard-local) and then sends nothing for kStalledAfterKeepalives
// intervals has stalled: the watch reports CONNECTION_LOST instead of letting the stream wait
// forever. A server that promises nothing (another server) is never called stalled.

#include "client/types.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <functional>

namespace lizard::client {

class CurlTransfer;

class KeepaliveWatch : public QObject
{
public:
    static constexpr int kStalledAfterKeepalives = 3;

    // Reads the promise from transfer's headers once they are complete; calls onStalled (once)
    // with the error to fail with. Starts watching at once.
    KeepaliveWatch(const CurlTransfer* transfer, QString what,
                   std::function<void(const ApiError&)> onStalled, QObject* parent = nullptr);

    void dataArrived(); // bytes of the answer came: the connection is alive
    void stop() { m_timer.stop(); }

private:
    void check();

    const CurlTransfer* m_transfer;
    QString m_what;
    std::function<void(const ApiError&)> m_onStalled;
    QTimer m_timer;
    QElapsedTimer m_sinceData; // since the last bytes of the answer (or the start)
    bool m_sawData = false;    // the headers are complete once body bytes came
    qint64 m_keepaliveMs = -1; // the server's promise; -1: not known (yet), 0: none
};

} // namespace lizard::client
