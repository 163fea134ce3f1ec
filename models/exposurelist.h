#pragma once
// The ports this app exposed, per sandbox. The API answers expose/unexpose but cannot list
// exposures, so the app keeps what exposePort answered (tokens included) for as long as the
// connection lives. A new connection starts with a new, empty list.

#include "client/outcome.h"

#include <QHash>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <functional>
#include <optional>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

class ExposureList : public QObject
{
    Q_OBJECT
public:
    explicit ExposureList(client::LizardApi* api, QObject* parent = nullptr); // api not owned

    using Done = std::function<void(client::Outcome<client::ExposedPort>)>;
    // Exposes the port (asks the server even when it is known, so a stale token is replaced).
    void expose(const QString& sandboxId, int port, Done done = {});
    // The known exposure, or a new one.
    void ensureExposed(const QString& sandboxId, int port, Done done);
    // Ends the access; a port the server no longer knows (404) is forgotten too.
    void unexpose(const QString& sandboxId, int port, std::function<void(bool ok)> done = {});

    std::optional<client::ExposedPort> exposure(const QString& sandboxId, int port) const;
    QList<client::ExposedPort> exposures(const QString& sandboxId) const;

signals:
    void changed(const QString& sandboxId);
    void failed(const lizard::client::ApiError& error);

private:
    QPointer<client::LizardApi> m_api;
    QHash<QString, QMap<int, client::ExposedPort>> m_bySandbox;
};

} // namespace lizard::models
