#pragma once
// Whether an API key sent to a base URL would cross a network unencrypted. The key is the
// account: over plain http:// anyone on the path (Wi-Fi, proxy, provider) can read and reuse
// it. Loopback (127.0.0.0/8, ::1, localhost) never leaves this computer.

#include <QString>

namespace lizard::client {

bool isLoopbackHost(const QString& host);

// True for http:// to anything but loopback (also for a URL that does not parse: when in
// doubt, the key stays home).
bool keyTravelsInClear(const QString& baseUrl);

} // namespace lizard::client
