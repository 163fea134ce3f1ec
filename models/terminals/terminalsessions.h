#pragma once
// The terminals of one sandbox, as a list (lizard-local's PTY sessions): refreshed from the
// server, and changed by create, rename and close, each of which lists them again. A server
// without terminals (it answers 404 for /terminals, or 501: the cloud today) makes supported()
// false with the reason to show; the Console tab still runs commands there. No widgets.

#include "client/outcome.h"

#include <QAbstractListModel>
#include <QPointer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class TerminalSessions : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Role {
        TerminalIdRole = Qt::UserRole + 1,
        NameRole,
        CommandRole,  // the argv joined by spaces
        StatusRole,   // running, exited
        RunningRole,  // bool
        ExitCodeRole, // int, or invalid while running
        ColsRole,
        RowsRole,
        ClientsRole,
        CreatedAtRole,
    };

    // api: not owned; null: every call fails as "not connected".
    TerminalSessions(client::LizardApi* api, QString sandboxId, QObject* parent = nullptr);

    QString sandboxId() const { return m_sandboxId; }

    void refresh();
    // cmd: a shell command line (empty: the user's login shell); cwd empty, cols/rows 0: the
    // server's defaults. created() follows with the new terminal, then the list again.
    void create(const QString& cmd, const QString& cwd = {}, int cols = 0, int rows = 0);
    void close(const QString& terminalId);
    void rename(const QString& terminalId, const QString& name);

    // False once the server said it has no terminals; unsupportedReason() says so in words.
    bool supported() const { return m_supported; }
    QString unsupportedReason() const { return m_supported ? QString() : m_unsupportedReason; }

    int rowOf(const QString& terminalId) const;
    const QList<client::TerminalInfo>& terminals() const { return m_rows; }
    // What a tab shows: the name, else the command, else "shell".
    static QString titleOf(const client::TerminalInfo& terminal);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QHash<int, QByteArray> roleNames() const override;

signals:
    void refreshed(); // the rows are the server's list now
    void created(const lizard::client::TerminalInfo& terminal);
    void failed(const lizard::client::ApiError& error); // any call, with its `what`
    void supportedChanged(bool supported);

private:
    void apply(const QList<client::TerminalInfo>& fresh);
    // A 404/501 for /terminals: the server lacks them unless the sandbox itself is gone (a 404
    // for the sandbox reads the same), which getSandbox tells apart.
    void onError(const client::ApiError& error);
    void setSupported(bool supported);
    bool connected(const QString& what);

    QPointer<client::LizardApi> m_api;
    QString m_sandboxId;
    QList<client::TerminalInfo> m_rows;
    bool m_supported = true;
    QString m_unsupportedReason;
};

} // namespace lizard::models
