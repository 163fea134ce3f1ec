#include "sandboxes/metricsfile.h"

#include "common/fileutil.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace lizard::sandboxes {

namespace {

constexpr char kMetricsMagic[8] = {'L', 'Z', 'M', 'E', 'T', '1', '\n', '\0'};
enum MetricsRecordType : uint8_t {
    kMetricsSampleRecord = 1,
    kMetricsBucket0Record = 2,
    kMetricsBucket1Record = 3,
    kMetricsMarkRecord = 4
};
constexpr size_t kMetricsRecordHeader = 8;   // type, 3 bytes zero, payload length (uint32)
constexpr size_t kMetricsPointBytes = 8 * 9; // t and the eight figures
constexpr size_t kMetricsMaxRecord = 16 * 1024;

// The file lives and dies on this host: native byte order.
std::string metricsRecord(MetricsRecordType type, const std::string& payload)
{
    std::string out(kMetricsRecordHeader, '\0');
    out[0] = char(type);
    const auto len = uint32_t(payload.size());
    std::memcpy(out.data() + 4, &len, 4);
    return out + payload;
}

std::string metricsPointPayload(const MetricPoint& p)
{
    std::string out(kMetricsPointBytes, '\0');
    std::memcpy(out.data(), &p.t, 8);
    for (int i = 0; i < MetricPoint::kFigures; ++i) {
        const double v = p.figure(i);
        std::memcpy(out.data() + 8 + 8 * i, &v, 8);
    }
    return out;
}

MetricPoint metricsPointFrom(const char* data)
{
    MetricPoint p;
    std::memcpy(&p.t, data, 8);
    for (int i = 0; i < MetricPoint::kFigures; ++i)
        std::memcpy(&p.figure(i), data + 8 + 8 * i, 8);
    return p;
}

bool metricsWriteAll(int fd, const std::string& data)
{
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n <= 0)
            return false;
        done += size_t(n);
    }
    return true;
}

} // namespace

std::string MetricsFile::sampleRecord(const MetricPoint& sample)
{
    return metricsRecord(kMetricsSampleRecord, metricsPointPayload(sample));
}

std::string MetricsFile::bucketRecord(int tier, const MetricPoint& bucket)
{
    return metricsRecord(tier == 0 ? kMetricsBucket0Record : kMetricsBucket1Record,
                         metricsPointPayload(bucket));
}

std::string MetricsFile::markRecord(const LifecycleMark& mark)
{
    const nlohmann::json j = {{"t", mark.t}, {"kind", mark.kind}, {"message", mark.message}};
    return metricsRecord(kMetricsMarkRecord,
                         j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

bool MetricsFile::load(MetricsSeries& series, std::deque<LifecycleMark>& marks) const
{
    auto text = readSmallFile(m_path, 4 * kMaxBytes);
    if (!text || text->size() < sizeof kMetricsMagic ||
        std::memcmp(text->data(), kMetricsMagic, 8) != 0)
        return false;
    std::vector<MetricPoint> samples;
    const std::string& s = *text;
    for (size_t pos = sizeof kMetricsMagic; pos + kMetricsRecordHeader <= s.size();) {
        uint32_t len = 0;
        std::memcpy(&len, s.data() + pos + 4, 4);
        const auto type = uint8_t(s[pos]);
        if (len > kMetricsMaxRecord || pos + kMetricsRecordHeader + len > s.size())
            break; // cut short by a crash: what follows cannot be trusted
        const char* payload = s.data() + pos + kMetricsRecordHeader;
        pos += kMetricsRecordHeader + len;
        if ((type == kMetricsSampleRecord || type == kMetricsBucket0Record ||
             type == kMetricsBucket1Record) &&
            len == kMetricsPointBytes) {
            const MetricPoint p = metricsPointFrom(payload);
            if (type == kMetricsSampleRecord)
                samples.push_back(p);
            else
                series.restoreBucket(type == kMetricsBucket0Record ? 0 : 1, p);
        } else if (type == kMetricsMarkRecord) {
            const auto j = nlohmann::json::parse(std::string(payload, len), nullptr, false);
            if (j.is_object() && j.value("t", int64_t(0)) > 0)
                marks.push_back({j.value("t", int64_t(0)), j.value("kind", std::string()),
                                 j.value("message", std::string())});
        }
    }
    // Buckets first: a sample already in a closed bucket then only joins the raw window.
    for (const MetricPoint& p : samples)
        series.add(p);
    while (marks.size() > kMaxMarks)
        marks.pop_front();
    return true;
}

bool MetricsFile::append(const std::string& records, bool create) const
{
    const int flags = O_WRONLY | O_APPEND | O_CLOEXEC | (create ? O_CREAT | O_EXCL : 0);
    int fd = ::open(m_path.c_str(), flags, 0600);
    if (fd < 0 && create && errno == EEXIST)
        fd = ::open(m_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    else if (fd >= 0 && create &&
             !metricsWriteAll(fd, std::string(kMetricsMagic, sizeof kMetricsMagic))) {
        ::close(fd);
        return false;
    }
    if (fd < 0)
        return false;
    const bool ok = metricsWriteAll(fd, records);
    ::close(fd);
    return ok;
}

bool MetricsFile::rewrite(const MetricsSeries& series, const std::deque<LifecycleMark>& marks,
                          size_t& bytes) const
{
    std::string out(kMetricsMagic, sizeof kMetricsMagic);
    for (int tier = 0; tier < 2; ++tier)
        for (const MetricPoint& b : series.buckets(tier))
            out += bucketRecord(tier, b);
    for (const MetricPoint& p : series.raw())
        out += sampleRecord(p);
    for (const LifecycleMark& m : marks)
        out += markRecord(m);
    if (!writeFileAtomic(m_path, out, 0600))
        return false;
    bytes = out.size();
    return true;
}

} // namespace lizard::sandboxes
