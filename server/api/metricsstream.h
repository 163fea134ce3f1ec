#pragma once
// GET /api/sandboxes/{id}/metrics with Accept: text/event-stream: `event: metrics` with the
// answer the plain GET gives for the range, then `event: sample` per sample and `event:
// lifecycle` per lifecycle mark as they come, until the sandbox ends (`event: end`), the
// client goes, or its key is revoked.

#include "api/eventstream.h"
#include "api/keystreams.h"
#include "sandboxes/metricssampler.h"

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace lizard::api {

class MetricsStream : public Revocable, public EventStream
{
public:
    MetricsStream(std::shared_ptr<http::Exchange> exchange, sandboxes::MetricsSampler& sampler,
                  std::string sandboxId);
    // Subscribes first, then sends `first` (the range so far), so no sample falls between.
    void start(const std::function<nlohmann::json()>& first);
    void revoke() override { revokeOnExecutor(); }

private:
    void onUpdate(const std::optional<sandboxes::MetricsSampler::Update>& update);
    void send(std::string text);
    void cancel() override;
    void endRevoked() override;
    void unsubscribe();

    sandboxes::MetricsSampler& m_sampler;
    std::string m_id;
    uint64_t m_token = 0;
};

} // namespace lizard::api
