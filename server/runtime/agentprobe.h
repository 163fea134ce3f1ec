#pragma once
// Asynchronous liveness ping of one sandbox's agent, shared: calls that wait on the same
// agent at once share one ping, and a ping answered within the last T/2 counts for all.
// The agent answers pings also when it serves its most requests (agentserver.cpp).

#include <boost/asio/any_io_executor.hpp>
#include <functional>
#include <string>

namespace lizard::runtime {

// `done(alive)` on `ex`; alive also when lizard-local froze the sandbox on purpose.
void probeAgent(boost::asio::any_io_executor ex, const std::string& socketPath,
                std::function<void(bool alive)> done);

} // namespace lizard::runtime
