#pragma once
// What an HttpSession needs from the application: limits, authentication and dispatch.

#include "common/result.h"
#include "http/beast.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace lizard::http {

class Exchange;

class RequestHandler
{
public:
    virtual ~RequestHandler() = default;
    // Largest body accepted for this request (checked against Content-Length and while reading).
    virtual uint64_t bodyLimit(const RequestHeader& header) const = 0;
    // Checked for EVERY request before dispatch (and before `100 Continue`): nothing when the
    // request may go on, else its error (401 without a valid key, 403 beyond the key's scope).
    virtual std::optional<Error> authorize(const RequestHeader& header) = 0;
    // Must eventually answer through the exchange (an unanswered exchange answers 500).
    virtual void handle(std::shared_ptr<Exchange> exchange) = 0;
};

} // namespace lizard::http
