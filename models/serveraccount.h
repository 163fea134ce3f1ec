#pragma once
// Who the app speaks to: the server's address, whether it runs on this computer, and whom the
// key belongs to (Help ▸ About, the connection test of Lizard ▸ Connections, the notebook's
// lifetime policy, which differs for lizard-local and the cloud).

#include "client/outcome.h"

#include <QObject>

namespace lizard::client {
class LizardApi;
} // namespace lizard::client

namespace lizard::models {

QString serverUrl(const client::LizardApi* api); // empty when null
// Loopback: lizard-local (the embedded default, or one started by hand) on this computer.
bool isLocalServer(const client::LizardApi* api);

// Asks the server whom the key belongs to (GET /api/me); null api: "not connected".
void askWhoAmI(client::LizardApi* api, QObject* ctx, client::Done<client::WhoAmI> done);
// The same of an endpoint not connected yet, on a connection of its own that ends with the call.
void testEndpoint(const client::Endpoint& endpoint, QObject* ctx,
                  client::Done<client::WhoAmI> done);

} // namespace lizard::models
