#pragma once
// Answers with a tool's stream: the first line the tool prints says whether it could start
// ({"ok":true} or {"ok":false,"error"}); what follows is the body, passed on as the client
// takes it (the tool waits while the socket is full). A tool that ends in failure cuts the
// answer short, so a client never takes a partial archive for a whole one; a client that goes
// away ends the tool.

#include "http/exchange.h"
#include "runtime/runtime.h"

#include <memory>
#include <string>

namespace lizard::api {

void streamToolOutput(const std::shared_ptr<http::Exchange>& ex, runtime::ToolStream tool,
                      std::string contentType);

} // namespace lizard::api
