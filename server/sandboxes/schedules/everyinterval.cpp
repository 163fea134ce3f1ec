#include "sandboxes/schedules/everyinterval.h"

#include <string>
#include <utility>

namespace lizard::sandboxes {

Result<int64_t> parseEvery(std::string_view text)
{
    const auto invalid = [text](const std::string& why) {
        return Error{ErrorKind::InvalidArgument, "INVALID_SCHEDULE",
                     "field \"every\" \"" + std::string(text.substr(0, 64)) + "\": " + why +
                         " (a number of seconds, or amounts with units as in \"90s\", \"5m\", "
                         "\"1h30m\", \"2d\")"};
    };
    if (text.empty())
        return invalid("empty");
    if (text.size() > 32)
        return invalid("too long");
    int64_t total = 0;
    size_t i = 0;
    while (i < text.size()) {
        int64_t amount = 0;
        size_t digits = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            amount = amount * 10 + (text[i++] - '0');
            if (++digits > 9)
                return invalid("too large");
        }
        if (digits == 0)
            return invalid("expected a number at \"" + std::string(text.substr(i)) + "\"");
        int64_t unit = 1;
        if (i < text.size()) {
            switch (text[i]) {
            case 's':
                unit = 1;
                break;
            case 'm':
                unit = 60;
                break;
            case 'h':
                unit = 3600;
                break;
            case 'd':
                unit = 86400;
                break;
            default:
                return invalid("unknown unit '" + std::string(1, text[i]) + "'");
            }
            ++i;
        } else if (total != 0) {
            return invalid("a number without a unit after another amount");
        }
        total += amount * unit;
        if (total > kMaxEverySeconds)
            return invalid("longer than 366 days");
    }
    if (total <= 0)
        return invalid("must be at least 1 second");
    return total;
}

std::string formatEvery(int64_t seconds)
{
    std::string out;
    const std::pair<int64_t, char> units[] = {{86400, 'd'}, {3600, 'h'}, {60, 'm'}, {1, 's'}};
    for (const auto& [size, unit] : units) {
        if (seconds >= size) {
            out += std::to_string(seconds / size) + unit;
            seconds %= size;
        }
    }
    return out.empty() ? "0s" : out;
}

} // namespace lizard::sandboxes
