#include "sandboxes/schedules/timezone.h"

#include "common/fileutil.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace lizard::sandboxes {

namespace {

constexpr size_t kMaxTzifFileBytes = 1 << 20; // the largest zone in tzdata is about 4 KiB

Error invalidZone(const std::string& message)
{
    return Error{ErrorKind::InvalidArgument, "INVALID_TIMEZONE", message};
}

bool isUtcName(std::string_view n)
{
    return n == "UTC" || n == "Etc/UTC" || n == "Etc/GMT" || n == "GMT" || n == "Z" ||
           n == "Etc/Universal" || n == "Universal" || n == "Etc/Zulu" || n == "Zulu";
}

// Big-endian reads from the file's bytes; `ok` turns false past the end.
struct TzifBytes
{
    std::string_view s;
    size_t at = 0;
    bool ok = true;

    bool has(size_t n) const { return ok && s.size() - at >= n && at <= s.size(); }
    uint64_t be(size_t n)
    {
        if (!has(n)) {
            ok = false;
            return 0;
        }
        uint64_t v = 0;
        for (size_t i = 0; i < n; ++i)
            v = (v << 8) | static_cast<unsigned char>(s[at + i]);
        at += n;
        return v;
    }
    void skip(uint64_t n)
    {
        if (!has(n))
            ok = false;
        else
            at += n;
    }
};

struct TzifHeader
{
    char version = 0;
    uint64_t isut = 0, isstd = 0, leap = 0, time = 0, type = 0, chars = 0;
};

bool readHeader(TzifBytes& b, TzifHeader& h)
{
    if (!b.has(44) || b.s.substr(b.at, 4) != "TZif")
        return false;
    h.version = b.s[b.at + 4];
    b.skip(20);
    h.isut = b.be(4);
    h.isstd = b.be(4);
    h.leap = b.be(4);
    h.time = b.be(4);
    h.type = b.be(4);
    h.chars = b.be(4);
    return b.ok && h.type > 0 && h.type <= 256 && h.time <= 100000 && h.chars <= 65536 &&
           h.leap <= 10000 && (h.isut == 0 || h.isut == h.type) &&
           (h.isstd == 0 || h.isstd == h.type);
}

} // namespace

bool TimeZone::validName(std::string_view name)
{
    if (name.empty() || name.size() > 128 || name.front() == '/' || name.back() == '/')
        return false;
    size_t start = 0;
    while (start <= name.size()) {
        size_t end = name.find('/', start);
        if (end == std::string_view::npos)
            end = name.size();
        const std::string_view part = name.substr(start, end - start);
        if (part.empty() || part == "." || part == "..")
            return false;
        for (char c : part) {
            const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                            (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '+' || c == '.';
            if (!ok)
                return false;
        }
        start = end + 1;
    }
    return true;
}

Result<std::shared_ptr<const TimeZone>> TimeZone::fromTzif(const std::string& name,
                                                           std::string_view bytes)
{
    TzifBytes b{bytes};
    TzifHeader h;
    if (!readHeader(b, h))
        return invalidZone("time zone \"" + name + "\": not a TZif file");
    size_t timeSize = 4;
    if (h.version >= '2') {
        // Version 2+: skip the 32-bit block; the 64-bit one and the footer follow.
        b.skip(h.time * 5 + h.type * 6 + h.chars + h.leap * 8 + h.isstd + h.isut);
        if (!readHeader(b, h))
            return invalidZone("time zone \"" + name + "\": truncated TZif file");
        timeSize = 8;
    }
    if (h.leap != 0)
        return invalidZone("time zone \"" + name +
                           "\" counts leap seconds (a \"right/\" zone); use the zone without it");
    std::vector<int64_t> times(h.time);
    for (auto& t : times) {
        const uint64_t raw = b.be(timeSize);
        t = timeSize == 8 ? int64_t(raw) : int64_t(int32_t(uint32_t(raw)));
    }
    std::vector<uint8_t> indices(h.time);
    for (auto& i : indices)
        i = uint8_t(b.be(1));
    std::vector<int32_t> offsets(h.type);
    for (auto& o : offsets) {
        o = int32_t(uint32_t(b.be(4)));
        b.skip(2); // isdst, abbreviation index
    }
    b.skip(h.chars + h.leap * (timeSize + 4) + h.isstd + h.isut);
    if (!b.ok)
        return invalidZone("time zone \"" + name + "\": truncated TZif file");
    auto zone = std::make_shared<TimeZone>();
    zone->m_name = name;
    zone->m_initial = offsets[0]; // RFC 8536: type 0 before the first transition
    int32_t current = zone->m_initial;
    int64_t last = INT64_MIN;
    for (size_t i = 0; i < times.size(); ++i) {
        if (indices[i] >= offsets.size() || times[i] <= last)
            return invalidZone("time zone \"" + name + "\": malformed transitions");
        last = times[i];
        if (offsets[indices[i]] == current)
            continue; // an abbreviation or isdst change: no other wall clock
        current = offsets[indices[i]];
        zone->m_transitions.push_back(times[i]);
        zone->m_offsets.push_back(current);
    }
    if (h.version >= '2' && b.has(1) && bytes[b.at] == '\n') {
        const size_t start = b.at + 1;
        const size_t end = bytes.find('\n', start);
        if (end == std::string_view::npos)
            return invalidZone("time zone \"" + name + "\": malformed footer");
        const std::string_view footer = bytes.substr(start, end - start);
        if (!footer.empty()) {
            zone->m_rule = PosixTzRule::parse(footer);
            if (!zone->m_rule)
                return invalidZone("time zone \"" + name + "\": unreadable rule \"" +
                                   std::string(footer) + "\"");
        }
    }
    return std::shared_ptr<const TimeZone>(std::move(zone));
}

Result<std::shared_ptr<const TimeZone>> TimeZone::load(const std::string& name,
                                                       const std::string& dir)
{
    if (isUtcName(name)) {
        auto utc = std::make_shared<TimeZone>();
        utc->m_name = name;
        return std::shared_ptr<const TimeZone>(std::move(utc));
    }
    if (!validName(name))
        return invalidZone("\"" + name +
                           "\" is not a time zone name (an IANA name such as Europe/Berlin)");
    auto bytes = readSmallFile(dir + "/" + name, kMaxTzifFileBytes);
    if (!bytes)
        return invalidZone("unknown time zone \"" + name +
                           "\" (an IANA name such as Europe/Berlin or America/New_York)");
    return fromTzif(name, *bytes);
}

Result<std::shared_ptr<const TimeZone>> TimeZone::named(const std::string& name)
{
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const TimeZone>> cache;
    {
        std::lock_guard lock(mutex);
        if (const auto it = cache.find(name); it != cache.end())
            return it->second;
    }
    auto zone = load(name, kZoneInfoDir);
    if (!zone)
        return zone.error();
    std::lock_guard lock(mutex);
    if (cache.size() < 1024) // names are checked, but a bound costs nothing
        cache.emplace(name, *zone);
    return *zone;
}

int32_t TimeZone::offsetAt(int64_t t) const
{
    const auto it = std::upper_bound(m_transitions.begin(), m_transitions.end(), t);
    if (it == m_transitions.end() && m_rule && (m_transitions.empty() || t >= m_transitions.back()))
        return m_rule->offsetAt(t);
    if (it == m_transitions.begin())
        return m_initial;
    return m_offsets[size_t(it - m_transitions.begin()) - 1];
}

std::optional<int64_t> TimeZone::nextChange(int64_t t) const
{
    const auto it = std::upper_bound(m_transitions.begin(), m_transitions.end(), t);
    if (it != m_transitions.end())
        return *it;
    if (!m_rule)
        return std::nullopt;
    // Past the table the rule speaks; its first change may come right after the last entry.
    std::optional<int64_t> next = m_rule->nextChange(t);
    while (next && offsetAt(*next) == offsetAt(*next - 1))
        next = m_rule->nextChange(*next);
    return next;
}

std::optional<int64_t> TimeZone::previousChange(int64_t t) const
{
    const auto it = std::upper_bound(m_transitions.begin(), m_transitions.end(), t);
    if (it == m_transitions.end() && m_rule) {
        const auto byRule = m_rule->previousChange(t);
        if (byRule && (m_transitions.empty() || *byRule > m_transitions.back()) &&
            offsetAt(*byRule) != offsetAt(*byRule - 1))
            return byRule;
    }
    if (it == m_transitions.begin())
        return std::nullopt;
    return *(it - 1);
}

} // namespace lizard::sandboxes
