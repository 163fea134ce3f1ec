#include "sandboxes/schedules/posixtzrule.h"

#include "sandboxes/schedules/civiltime.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace lizard::sandboxes {

namespace {

// Reads the text as it goes; any failure leaves `ok` false.
struct TzRuleReader
{
    std::string_view s;
    size_t i = 0;
    bool ok = true;

    bool atEnd() const { return i >= s.size(); }
    char peek() const { return atEnd() ? '\0' : s[i]; }
    bool take(char c)
    {
        if (peek() != c)
            return false;
        ++i;
        return true;
    }
    int number(int maxDigits)
    {
        int v = 0, digits = 0;
        while (digits < maxDigits && std::isdigit(static_cast<unsigned char>(peek()))) {
            v = v * 10 + (s[i++] - '0');
            ++digits;
        }
        if (digits == 0)
            ok = false;
        return v;
    }
    // A zone abbreviation: three or more letters, or <...> with letters, digits, + and -.
    void name()
    {
        size_t n = 0;
        if (take('<')) {
            while (!atEnd() && peek() != '>') {
                const char c = s[i++];
                if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-')
                    ok = false;
                ++n;
            }
            if (!take('>'))
                ok = false;
        } else {
            while (std::isalpha(static_cast<unsigned char>(peek()))) {
                ++i;
                ++n;
            }
        }
        if (n < 3)
            ok = false;
    }
    // [+-]hh[:mm[:ss]], hours up to `maxHours`; returns seconds.
    int32_t duration(int maxHours)
    {
        int sign = 1;
        if (take('-'))
            sign = -1;
        else
            take('+');
        const int h = number(3);
        int m = 0, sec = 0;
        if (take(':')) {
            m = number(2);
            if (take(':'))
                sec = number(2);
        }
        if (h > maxHours || m > 59 || sec > 59)
            ok = false;
        return sign * (h * 3600 + m * 60 + sec);
    }
};

} // namespace

std::optional<PosixTzRule> PosixTzRule::parse(std::string_view text)
{
    TzRuleReader r{text};
    PosixTzRule rule;
    r.name();
    // POSIX offsets count west of Greenwich: "CET-1" is one hour east.
    rule.m_std = -r.duration(24);
    if (!r.ok)
        return std::nullopt;
    if (r.atEnd())
        return rule;
    r.name();
    if (!r.ok)
        return std::nullopt;
    rule.m_hasDst = true;
    rule.m_dst = rule.m_std + 3600;
    if (!r.atEnd() && r.peek() != ',')
        rule.m_dst = -r.duration(24);
    auto date = [&r](Date& d) {
        if (!r.take(','))
            return r.ok = false;
        if (r.take('J')) {
            d.kind = Date::Kind::Julian1;
            d.n = r.number(3);
            r.ok = r.ok && d.n >= 1 && d.n <= 365;
        } else if (r.take('M')) {
            d.kind = Date::Kind::MonthWeekDay;
            d.month = r.number(2);
            r.ok = r.ok && r.take('.');
            d.week = r.number(1);
            r.ok = r.ok && r.take('.');
            d.weekday = r.number(1);
            r.ok = r.ok && d.month >= 1 && d.month <= 12 && d.week >= 1 && d.week <= 5 &&
                   d.weekday <= 6;
        } else {
            d.kind = Date::Kind::Julian0;
            d.n = r.number(3);
            r.ok = r.ok && d.n <= 365;
        }
        if (r.take('/'))
            d.time = r.duration(167); // RFC 8536 allows -167..167 hours
        return r.ok;
    };
    if (r.atEnd()) {
        // No dates: POSIX leaves them to the implementation; the US rule is the usual one.
        rule.m_start = Date{Date::Kind::MonthWeekDay, 0, 3, 2, 0, 7200};
        rule.m_end = Date{Date::Kind::MonthWeekDay, 0, 11, 1, 0, 7200};
        return rule;
    }
    if (!date(rule.m_start) || !date(rule.m_end) || !r.atEnd())
        return std::nullopt;
    return rule;
}

int64_t PosixTzRule::dayOf(const Date& d, int year)
{
    const int64_t jan1 = daysFromCivil(year, 1, 1);
    switch (d.kind) {
    case Date::Kind::Julian1:
        // Day n of a 365-day year: from March on, a leap year's February 29 is skipped.
        return jan1 + d.n - 1 + (isLeapYear(year) && d.n >= 60 ? 1 : 0);
    case Date::Kind::Julian0:
        return jan1 + d.n;
    case Date::Kind::MonthWeekDay:
        break;
    }
    const int64_t first = daysFromCivil(year, d.month, 1);
    int64_t day = first + (d.weekday - weekdayOfDays(first) + 7) % 7 + int64_t(d.week - 1) * 7;
    while (day >= first + daysInMonth(year, d.month))
        day -= 7; // week 5: the last such weekday
    return day;
}

void PosixTzRule::eventsOf(int year, Event out[2]) const
{
    // The start's time is given in standard time, the end's in daylight time.
    out[0] = {dayOf(m_start, year) * 86400 + m_start.time - m_std, true};
    out[1] = {dayOf(m_end, year) * 86400 + m_end.time - m_dst, false};
}

bool PosixTzRule::dstAt(int64_t t) const
{
    const int year = civilFromSeconds(t + m_std).year;
    std::vector<Event> events;
    for (int y = year - 1; y <= year + 1; ++y) {
        Event e[2];
        eventsOf(y, e);
        events.insert(events.end(), e, e + 2);
    }
    // At equal instants the end sorts first: a start at the same moment wins (a zone in
    // daylight time all year, "EST5EDT,0/0,J365/25").
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
        return a.at != b.at ? a.at < b.at : (!a.dstStarts && b.dstStarts);
    });
    bool dst = false;
    for (const Event& e : events) {
        if (e.at > t)
            break;
        dst = e.dstStarts;
    }
    return dst;
}

int32_t PosixTzRule::offsetAt(int64_t t) const
{
    return m_hasDst && dstAt(t) ? m_dst : m_std;
}

std::optional<int64_t> PosixTzRule::nextChange(int64_t t) const
{
    if (!m_hasDst || m_dst == m_std)
        return std::nullopt;
    const int year = civilFromSeconds(t + m_std).year;
    const int32_t now = offsetAt(t);
    std::vector<int64_t> instants;
    for (int y = year - 1; y <= year + 2; ++y) {
        Event e[2];
        eventsOf(y, e);
        instants.push_back(e[0].at);
        instants.push_back(e[1].at);
    }
    std::sort(instants.begin(), instants.end());
    for (int64_t at : instants) {
        if (at > t && offsetAt(at) != now)
            return at;
    }
    return std::nullopt;
}

std::optional<int64_t> PosixTzRule::previousChange(int64_t t) const
{
    if (!m_hasDst || m_dst == m_std)
        return std::nullopt;
    const int year = civilFromSeconds(t + m_std).year;
    std::vector<int64_t> instants;
    for (int y = year - 1; y <= year + 1; ++y) {
        Event e[2];
        eventsOf(y, e);
        instants.push_back(e[0].at);
        instants.push_back(e[1].at);
    }
    std::sort(instants.begin(), instants.end(), std::greater<>());
    for (int64_t at : instants) {
        if (at <= t && offsetAt(at) != offsetAt(at - 1))
            return at;
    }
    return std::nullopt;
}

} // namespace lizard::sandboxes
