#pragma once
// The proxy's own answers (not the sandbox's): small HTML pages a browser user can read.

#include "http/beast.h"

#include <string>

namespace lizard::proxy {

http::StringResponse proxyPage(http::bhttp::status status, const std::string& title,
                               const std::string& text, unsigned version, bool keepAlive);

} // namespace lizard::proxy
