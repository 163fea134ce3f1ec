#pragma once
// TLS and name-resolution settings of a transfer: which extra certificate authority to trust
// (on top of the system's), HTTP/2 over TLS, and the test-only resolve hook. Certificate
// verification is always on; nothing here can turn it off.

#include <QString>
#include <curl/curl.h>

namespace lizard::client {

struct Endpoint;

// The PEM file of an extra certificate authority for endpoint: its own caFile, else the
// environment variable LIZARD_CA_BUNDLE, else none (empty).
QString caFileFor(const Endpoint& endpoint);

// Sets easy's TLS options: HTTP/2 when the server offers it over TLS, and caFile (if any)
// trusted in addition to the system's certificate authorities, for the server and for an
// https:// proxy alike.
void applyTlsOptions(CURL* easy, const QString& caFile);

// Test only: LIZARD_TEST_RESOLVE="name:port:address[,name:port:address…]" makes `name` resolve
// to `address` for this process's transfers (CURLOPT_RESOLVE), so tests can reach a loopback
// server by a host name that is not loopback (proxies, certificates) without /etc/hosts. The
// list is built from the environment once per process and never freed.
curl_slist* testResolveList();

} // namespace lizard::client
