// LizardApi: fs.watch (POST/DELETE .../files/watch, GET .../files/watch/events).
#include "client/apicall.h"
#include "client/jsonhelpers.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"
#include "client/urlencoding.h"

namespace lizard::client {

using namespace apicall;
using namespace jsonhelpers;

namespace {

Outcome<QString> parseWatcherId(const QByteArray& body, const QString& what)
{
    return parseWith<QString>(body, what, [](const Json& j) {
        return JsonReader(j, QStringLiteral("watcher")).requiredString("watcherId");
    });
}

Outcome<QList<FsEvent>> parseFsEvents(const QByteArray& body, const QString& what)
{
    return parseWith<QList<FsEvent>>(body, what, [](const Json& j) {
        return listOf<FsEvent>(j, "file events", [](const Json& e) {
            const JsonReader r(e, QStringLiteral("file event"));
            return FsEvent{r.requiredString("type"), r.string("name"), r.requiredString("path")};
        });
    });
}

} // namespace

PendingCall* LizardApi::watchFiles(const QString& sandboxId, const QString& path, bool recursive,
                                   QObject* ctx, Done<QString> done)
{
    const Json body{{"path", utf8(path)}, {"recursive", recursive}};
    const auto req =
        RequestBuilder(m_endpoint).json("POST", sandboxPath(sandboxId, "/files/watch"), dump(body));
    return startCall<QString>(m_multi.get(), req, tr("Watch folder"), ctx, std::move(done),
                              parseWatcherId);
}

PendingCall* LizardApi::watchEvents(const QString& sandboxId, const QString& watcherId,
                                    QObject* ctx, Done<QList<FsEvent>> done)
{
    const auto req = RequestBuilder(m_endpoint)
                         .json("GET", withQuery(sandboxPath(sandboxId, "/files/watch/events"),
                                                {{"watcherId", watcherId}}));
    // A busy folder drains up to 10,000 events at once: parsed off the event loop.
    return startCallParsedOffThread<QList<FsEvent>>(m_multi.get(), req, tr("File changes"), ctx,
                                                    std::move(done), parseFsEvents);
}

PendingCall* LizardApi::unwatchFiles(const QString& sandboxId, const QString& watcherId,
                                     QObject* ctx, Done<Unit> done)
{
    const auto req = RequestBuilder(m_endpoint)
                         .json("DELETE", withQuery(sandboxPath(sandboxId, "/files/watch"),
                                                   {{"watcherId", watcherId}}));
    return startCall<Unit>(m_multi.get(), req, tr("Stop watching folder"), ctx, std::move(done),
                           noValue);
}

} // namespace lizard::client
