#pragma once
// What an HttpSession needs from the application: limits, authentication and dispatch.

#include "http/beast.h"

#include <cstdint>
#include <memory>

namespace lizard::http {

class Exchange;

class RequestHandler
{
public:
    virtual ~RequestHandler() = default;
    // Largest body accepted for this request (checked against Content-Length and while reading).
    virtual uint64_t bodyLimit(const RequestHeader& header) const = 0;
    // Checked for EVERY request before dispatch (and before `100 Continue`).
    virtual bool authorized(const RequestHeader& header) const = 0;
    // Must eventually answer through the exchange (an unanswered exchange answers 500).
    virtual void handle(std::shared_ptr<Exchange> exchange) = 0;
};

} // namespace lizard::http
