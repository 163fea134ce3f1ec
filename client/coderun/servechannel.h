#pragma once
// The fast path (internal to client/coderun): one runner in `serve` mode on a long streaming
// exec. Requests are files written through the files API into its own inbox (a fresh name per
// serve process); its answers arrive on the stream and go to the call with the same `req`.

#include "client/coderun/runnerevents.h"
#include "client/lizardapi.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

namespace lizard::client {

class RunnerCall;

class ServeChannel : public QObject
{
    Q_OBJECT
public:
    enum class State { Starting, Ready, Expiring, Dead };

    ServeChannel(LizardApi* api, QString sandboxId, QByteArray source, int lifetimeS,
                 QObject* parent = nullptr);
    ~ServeChannel() override; // closes the stream: the runner exits, kernels stay

    void start();
    State state() const { return m_state; }
    int inFlight() const;
    // Ready (or Expiring, for nothing new): writes the request file. A request that could not be
    // written never reached the runner: notDelivered hands it back.
    void send(RunnerCall* call);

    // The serve process's usual lifetime: it says `expiring` then, well before the exec's 600 s
    // cap, so every request it accepted has at least this long to run.
    static constexpr int kLifetimeS = 300;
    int lifetimeS() const { return m_lifetimeS; }

signals:
    void ready();
    void expiring();
    void died(const QString& why); // calls in flight have failed with it
    void notDelivered(lizard::client::RunnerCall* call, const lizard::client::ApiError& error);

private:
    void onLines(const QList<OutputLine>& lines);
    void onControl(const nlohmann::json& ev);
    // `cause`: the stream's own error; a broken connection fails the calls in flight as such.
    void die(const QString& why, const ApiError* cause = nullptr);

    LizardApi* m_api;
    QString m_sandboxId;
    QByteArray m_source;
    QString m_inboxName;
    QString m_inboxPath;
    QPointer<ExecStream> m_stream;
    RunnerEventDecoder m_decoder;
    QHash<QString, QPointer<RunnerCall>> m_calls; // by req
    QStringList m_stderrTail;
    QTimer m_startTimer;
    State m_state = State::Starting;
    int m_lifetimeS;
    quint64 m_next = 0;
};

} // namespace lizard::client
