#include "sandboxes/schedules/cronexpression.h"

#include <array>
#include <cctype>
#include <optional>
#include <vector>

namespace lizard::sandboxes {

namespace {

struct CronFieldSpec
{
    const char* name;
    int min;
    int max;
    const char* const* names; // three-letter names from `min` on, or null
};

constexpr const char* kMonthNames[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                       "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr const char* kDayNames[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat", "sun"};

constexpr std::array<CronFieldSpec, 5> kCronFields{{{"minute", 0, 59, nullptr},
                                                    {"hour", 0, 23, nullptr},
                                                    {"day of month", 1, 31, nullptr},
                                                    {"month", 1, 12, kMonthNames},
                                                    {"day of week", 0, 7, kDayNames}}};

Error invalidCron(const std::string& message)
{
    return Error{ErrorKind::InvalidArgument, "INVALID_CRON", message};
}

std::string lowerCron(std::string_view s)
{
    std::string out(s);
    for (char& c : out)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// A value of the field: a number or, where the field has them, a name.
std::optional<int> cronValue(std::string_view text, const CronFieldSpec& f)
{
    if (text.empty() || text.size() > 3)
        return std::nullopt;
    if (std::isdigit(static_cast<unsigned char>(text[0]))) {
        int v = 0;
        for (char c : text) {
            if (!std::isdigit(static_cast<unsigned char>(c)))
                return std::nullopt;
            v = v * 10 + (c - '0');
        }
        return v;
    }
    if (f.names == nullptr)
        return std::nullopt;
    const std::string name = lowerCron(text);
    for (int i = 0; i <= f.max - f.min; ++i) {
        if (name == f.names[i])
            return f.min + i;
    }
    return std::nullopt;
}

// Sets the field's bits (indexed by value) from one comma-separated list.
Result<std::vector<bool>> parseCronField(std::string_view text, const CronFieldSpec& f)
{
    std::vector<bool> bits(size_t(f.max) + 1, false);
    const std::string where =
        std::string("cron field ") + f.name + " \"" + std::string(text) + "\"";
    size_t start = 0;
    while (start <= text.size()) {
        size_t comma = text.find(',', start);
        if (comma == std::string_view::npos)
            comma = text.size();
        std::string_view item = text.substr(start, comma - start);
        start = comma + 1;
        if (item.empty())
            return invalidCron(where + ": an empty list item");
        int step = 1;
        bool stepped = false;
        if (const size_t slash = item.find('/'); slash != std::string_view::npos) {
            const auto s = cronValue(item.substr(slash + 1), CronFieldSpec{f.name, 0, 0, nullptr});
            if (!s || *s < 1 || *s > f.max - f.min + 1)
                return invalidCron(where + ": the step after '/' must be from 1 to " +
                                   std::to_string(f.max - f.min + 1));
            step = *s;
            stepped = true;
            item = item.substr(0, slash);
        }
        int lo, hi;
        if (item == "*") {
            lo = f.min;
            hi = f.max == 7 ? 6 : f.max; // the day of week's 7 is Sunday again
        } else {
            const size_t dash = item.find('-');
            const auto a = cronValue(item.substr(0, dash), f);
            if (!a)
                return invalidCron(where + ": \"" + std::string(item.substr(0, dash)) +
                                   "\" is not a value");
            lo = hi = *a;
            if (dash != std::string_view::npos) {
                const auto b = cronValue(item.substr(dash + 1), f);
                if (!b)
                    return invalidCron(where + ": \"" + std::string(item.substr(dash + 1)) +
                                       "\" is not a value");
                hi = *b;
            } else if (stepped) {
                hi = f.max; // "A/N": from A to the end, every N
            }
            if (lo < f.min || hi > f.max || lo > hi)
                return invalidCron(where + ": values run from " + std::to_string(f.min) + " to " +
                                   std::to_string(f.max) + (lo > hi ? ", low to high" : ""));
        }
        for (int v = lo; v <= hi; v += step)
            bits[size_t(v)] = true;
    }
    return bits;
}

std::optional<std::string_view> cronMacro(std::string_view text)
{
    if (text == "@yearly" || text == "@annually")
        return "0 0 1 1 *";
    if (text == "@monthly")
        return "0 0 1 * *";
    if (text == "@weekly")
        return "0 0 * * 0";
    if (text == "@daily" || text == "@midnight")
        return "0 0 * * *";
    if (text == "@hourly")
        return "0 * * * *";
    return std::nullopt;
}

} // namespace

Result<CronExpression> CronExpression::parse(std::string_view text)
{
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
        text.remove_suffix(1);
    if (text.size() > 256)
        return invalidCron("cron expression longer than 256 characters");
    if (!text.empty() && text.front() == '@') {
        const auto expanded = cronMacro(lowerCron(text));
        if (!expanded)
            return invalidCron("unknown cron macro \"" + std::string(text) +
                               "\" (@yearly, @monthly, @weekly, @daily, @hourly)");
        text = *expanded;
    }
    std::vector<std::string_view> fields;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
            ++i;
        const size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])))
            ++i;
        if (i > start)
            fields.push_back(text.substr(start, i - start));
    }
    if (fields.size() != 5)
        return invalidCron("a cron expression has 5 fields (minute hour day-of-month month "
                           "day-of-week), \"" +
                           std::string(text) + "\" has " + std::to_string(fields.size()));
    CronExpression e;
    for (size_t f = 0; f < 5; ++f) {
        auto bits = parseCronField(fields[f], kCronFields[f]);
        if (!bits)
            return bits.error();
        for (size_t v = 0; v < bits->size(); ++v) {
            if (!(*bits)[v])
                continue;
            switch (f) {
            case 0:
                e.m_minutes.set(v);
                break;
            case 1:
                e.m_hours.set(v);
                break;
            case 2:
                e.m_days.set(v);
                break;
            case 3:
                e.m_months.set(v);
                break;
            default:
                e.m_weekdays.set(v % 7);
                break;
            }
        }
    }
    e.m_hourStar = fields[1].front() == '*';
    e.m_dayStar = fields[2].front() == '*';
    e.m_weekdayStar = fields[4].front() == '*';
    return e;
}

bool CronExpression::matchesDate(int month, int day, int weekday) const
{
    if (!m_months.test(size_t(month)))
        return false;
    const bool byDay = m_days.test(size_t(day));
    const bool byWeekday = m_weekdays.test(size_t(weekday));
    if (m_dayStar || m_weekdayStar)
        return byDay && byWeekday; // one of them is `*`: the other decides
    return byDay || byWeekday;     // both restricted: either (Vixie cron)
}

} // namespace lizard::sandboxes
