#include "api/metricsstream.h"

#include "api/metricsjson.h"
#include "api/sseencoder.h"

namespace lizard::api {

namespace {

// A client that does not read is cut past this much queued text (a day of samples at 2 s is
// about 4 MiB; a reader that far behind reconnects and gets the range again).
constexpr size_t kMaxUnsentMetricsBytes = 4 << 20;

} // namespace

MetricsStream::MetricsStream(std::shared_ptr<http::Exchange> exchange,
                             sandboxes::MetricsSampler& sampler, std::string sandboxId)
    : EventStream(std::move(exchange)), m_sampler(sampler), m_id(std::move(sandboxId))
{
}

void MetricsStream::start(const std::function<nlohmann::json()>& first)
{
    auto self = selfAs<MetricsStream>();
    auto executor = m_ex->executor();
    // Updates are posted to the connection's executor in order, after the first event, which
    // is written below on this executor before any of them can run.
    m_token =
        m_sampler.subscribe(m_id, [self, executor](const sandboxes::MetricsSampler::Update* u) {
            std::optional<sandboxes::MetricsSampler::Update> copy;
            if (u)
                copy = *u;
            http::net::post(executor, [self, copy = std::move(copy)] { self->onUpdate(copy); });
        });
    cancelOnHangUp();
    m_writer->begin(200, "text/event-stream", std::nullopt);
    send("event: metrics\n" + sseEvent(first()));
}

void MetricsStream::send(std::string text)
{
    if (!writeWithin(std::move(text), kMaxUnsentMetricsBytes))
        cancel();
}

void MetricsStream::onUpdate(const std::optional<sandboxes::MetricsSampler::Update>& update)
{
    if (m_finished)
        return;
    if (update && update->sample)
        return send("event: sample\n" + sseEvent(metricPointJson(*update->sample)));
    if (update && update->mark)
        return send("event: lifecycle\n" + sseEvent(lifecycleMarkJson(*update->mark)));
    if (update)
        return;
    m_token = 0; // the sampler dropped its listeners itself
    m_finished = true;
    m_writer->write("event: end\ndata: {\"reason\":\"sandbox ended\"}\n\n");
    m_writer->end();
}

void MetricsStream::cancel()
{
    if (m_finished)
        return;
    m_finished = true;
    unsubscribe();
    m_writer->abort();
}

void MetricsStream::endRevoked()
{
    m_writer->abortAfter("event: error\n" + errorData(keyRevoked()));
    m_finished = true;
    unsubscribe();
}

void MetricsStream::unsubscribe()
{
    if (m_token != 0)
        m_sampler.unsubscribe(m_id, std::exchange(m_token, 0));
}

} // namespace lizard::api
