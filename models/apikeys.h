#pragma once
// The account's API keys: listed, created (the whole secret comes back once) and revoked. A
// create or a revoke that succeeds lists the keys again, so `listed` always follows a change.
// The same calls serve lizard-local and the cloud; a server that has no keys answers 404/501.

#include "client/outcome.h"

#include <QObject>
#include <QPointer>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class ApiKeys : public QObject
{
    Q_OBJECT
public:
    // api: not owned; null: every call fails as "not connected".
    explicit ApiKeys(client::LizardApi* api, QObject* parent = nullptr);

    void refresh();
    // readOnly asks for lizard-local's read-only scope; otherwise the key has full access.
    void create(const QString& name, bool readOnly);
    void revoke(const QString& id);
    const QList<client::ApiKey>& keys() const { return m_keys; }

signals:
    void listed(const QList<lizard::client::ApiKey>& keys);
    void listFailed(const lizard::client::ApiError& error);
    void created(const QString& secret);
    void failed(const lizard::client::ApiError& error); // a create or a revoke

private:
    bool connected(const QString& what, bool listing);

    QPointer<client::LizardApi> m_api;
    QList<client::ApiKey> m_keys;
};

} // namespace lizard::models
