// The client's decoder of the code runner's stdout (client/coderun/runnerevents): the fuzz
// bytes are the runner's output, one event per line, as a program in the sandbox could print
// it. Every line is either junk (counted) or JSON; `part` pieces are joined per request id.

#include "client/coderun/runnerevents.h"
#include "fuzz_check.h"

using lizard::client::RunnerEventDecoder;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray out(reinterpret_cast<const char*>(data), qsizetype(size));
    RunnerEventDecoder decoder;
    int lines = 0;
    for (const QByteArray& line : out.split('\n')) {
        ++lines;
        const auto ev = decoder.feed(QString::fromUtf8(line));
        if (ev) // a whole event is never a piece
            FUZZ_CHECK(lizard::client::runnerEventType(*ev) != QLatin1String("part"));
    }
    FUZZ_CHECK(decoder.junkLines() >= 0);
    return 0;
}
