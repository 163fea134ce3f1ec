#pragma once
// The transfer under a followed stream (exec, sandbox logs, activity): its handlers set and
// started, with the two endings that come before any answer turned into the owner's error
// (through failLater, which must not need the transfer): the CurlMulti going away
// (Cancelled) and curl refusing to start.

#include "client/curltransfer.h"
#include "client/types.h"

#include <functional>
#include <memory>

namespace lizard::client {

std::unique_ptr<CurlTransfer>
startStreamTransfer(CurlMulti* multi, HttpRequest request, const QString& what,
                    CurlTransfer::DataHandler onData,
                    std::function<void(const HttpResponse&)> onFinished,
                    std::function<void(const ApiError&)> failLater);

} // namespace lizard::client
