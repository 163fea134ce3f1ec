#include "client/streamtransfer.h"

#include "client/errormapping.h"

#include <curl/curl.h>

namespace lizard::client {

std::unique_ptr<CurlTransfer>
startStreamTransfer(CurlMulti* multi, HttpRequest request, const QString& what,
                    CurlTransfer::DataHandler onData,
                    std::function<void(const HttpResponse&)> onFinished,
                    std::function<void(const ApiError&)> failLater)
{
    auto transfer = std::make_unique<CurlTransfer>(std::move(request));
    transfer->setDataHandler(std::move(onData));
    transfer->setFinishHandler([what, onFinished, failLater](const HttpResponse& response) {
        if (response.cancelled)
            failLater(cancelledError(what)); // the CurlMulti is being destroyed
        else
            onFinished(response);
    });
    if (!transfer->start(multi))
        failLater(mapTransportError(CURLE_FAILED_INIT, QStringLiteral("cannot start the transfer"),
                                    what));
    return transfer;
}

} // namespace lizard::client
