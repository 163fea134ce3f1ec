#pragma once
// One attached terminal, for a terminal widget: attaches (client::TerminalLink), forwards its
// output, size and exit, and takes the widget's input and size. A connection that breaks (not
// after the program exited, not after detach()) is attached again with backoff 0.25 s, 0.5 s,
// 1 s, … at most 5 s; each attach (the first too) begins with replayStarting() so the widget
// clears itself before the replay of recent output arrives. A terminal the server no longer has
// (404) or a refused key (401/403) is Failed, without retrying. No widgets.
//
// Wiring a view: input(QByteArray) → sendInput, sizeChanged(cols, rows) → resize;
// output → feed, replayOutput → feedReplay, replayStarting → reset.

#include "client/types.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

namespace lizard::client {
class LizardApi;
class TerminalLink;
} // namespace lizard::client

namespace lizard::models {

class TerminalSession : public QObject
{
    Q_OBJECT
public:
    enum class State { Detached, Connecting, Attached, Reconnecting, Exited, Failed };
    Q_ENUM(State)

    // api: not owned.
    TerminalSession(client::LizardApi* api, QString sandboxId, QString terminalId,
                    QObject* parent = nullptr);
    ~TerminalSession() override;

    QString sandboxId() const { return m_sandboxId; }
    QString terminalId() const { return m_terminalId; }

    // Attaches (again, after detach() or Failed). Output: the replay, then live.
    void attach();
    // Lets go of the terminal (it keeps running on the server). No reconnect follows.
    void detach();

    // Sent at once when attached; kept (64 KiB at most) and sent at the attach while connecting
    // or reconnecting; dropped once detached, ended or failed.
    void sendInput(const QByteArray& bytes);
    // The widget's size: sent now when attached, else with the next attach.
    void resize(int cols, int rows);
    void sendSignal(const QString& signal);
    // The widget cannot keep up: stop reading output until it can (the program waits, no
    // memory grows). Kept across reconnects.
    void pauseOutput(bool paused);

    State state() const { return m_state; }
    // What the widget's status line says: "Connecting…", "Connected", "Connection lost: …;
    // reconnecting in 1 s", "Exited with code 0", "Could not attach: …", "Detached".
    QString statusText() const;
    int cols() const { return m_cols; }
    int rows() const { return m_rows; }
    int exitCode() const { return m_exitCode; }
    const client::ApiError& lastError() const { return m_error; }
    int reconnectAttempt() const { return m_attempt; } // 0 while attached
    // The wait before reconnect attempt n (1-based): 250 ms doubled each time, at most 5 s.
    static int backoffMs(int attempt);

    // Test only: breaks the connection as a network failure would, so the reconnect runs.
    void dropConnectionForTest();

signals:
    void stateChanged(lizard::models::TerminalSession::State state);
    void replayStarting();
    void output(const QByteArray& bytes);
    // The replay of recent output after each attach (before live output): to show, without
    // answering the terminal queries in it again.
    void replayOutput(const QByteArray& bytes);
    void resized(int cols, int rows);
    void exited(int code);
    // A control message the server refused (the connection stays).
    void errorMessage(const QString& code, const QString& message);

private:
    void connectLink();
    void onAttached(int cols, int rows, const QString& status);
    void onDisconnected(const client::ApiError& error);
    void dropLink();
    void setState(State state);

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    QString m_terminalId;
    client::TerminalLink* m_link = nullptr;
    State m_state = State::Detached;
    int m_cols = 0;
    int m_rows = 0;
    int m_wantCols = 0; // the widget's size, 0: not told
    int m_wantRows = 0;
    int m_exitCode = 0;
    int m_attempt = 0;
    qint64 m_replayLeft = 0;
    bool m_outputPaused = false; // bytes of the current attach's replay still to come
    client::ApiError m_error;
    QTimer m_retry;
    QByteArray m_pendingInput; // typed while connecting or reconnecting
    bool m_pendingOverflow = false;
};

} // namespace lizard::models
