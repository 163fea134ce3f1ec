#pragma once
// JSON of the port calls: the answer of POST /api/sandboxes/{id}/expose/{port}.
// Tolerant of unknown fields; hostname, url and accessToken are required (a preview cannot
// work without them), port falls back to the requested one.

#include "client/outcome.h"
#include "client/types.h"

#include <QByteArray>

namespace lizard::client {

Outcome<ExposedPort> parseExposedPort(const QByteArray& body, int requestedPort,
                                      const QString& what = {});

} // namespace lizard::client
