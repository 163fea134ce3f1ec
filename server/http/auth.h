#pragma once
// The API key a request presents: `X-API-Key: <key>` or `Authorization: Bearer <key>`.

#include "http/beast.h"

#include <optional>
#include <string>

namespace lizard::http {

std::optional<std::string> presentedApiKey(const RequestHeader& header);

} // namespace lizard::http
