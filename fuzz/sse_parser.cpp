// The client's Server-Sent Events parser (client/sseparser): the first byte chooses where
// the rest is cut into chunks. The events must not depend on where the stream was cut: the
// whole stream fed at once and the same bytes fed in chunks give the same events.

#include "client/sseparser.h"
#include "fuzz_check.h"

using lizard::client::SseEvent;
using lizard::client::SseParser;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size == 0)
        return 0;
    const unsigned step = data[0] % 16 + 1;
    const QByteArrayView stream(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));

    SseParser whole;
    QList<SseEvent> once = whole.feed(stream);
    once += whole.finish();

    SseParser cut;
    QList<SseEvent> pieces;
    for (qsizetype pos = 0; pos < stream.size(); pos += step)
        pieces += cut.feed(stream.sliced(pos, std::min<qsizetype>(step, stream.size() - pos)));
    pieces += cut.finish();

    FUZZ_CHECK(once == pieces);
    FUZZ_CHECK(whole.lastEventId() == cut.lastEventId());
    FUZZ_CHECK(whole.retryMs() == cut.retryMs());
    for (const SseEvent& ev : once)
        FUZZ_CHECK(!ev.event.isEmpty());
    return 0;
}
