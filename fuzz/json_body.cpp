// The JSON body readers of lizard-local: the fuzz bytes are a request body. It goes through
// parseJsonObject (400 INVALID_JSON), every typed getter of Fields on the field names the
// routes use, and the request readers built on them (exec, volume name and size, sandbox
// size). Each must answer a value or an InvalidArgument error (a 400) with a code, never throw
// or crash.

#include "api/execrequest.h"
#include "api/jsonbody.h"
#include "api/sizes.h"
#include "api/volumerequest.h"
#include "fuzz_check.h"

using namespace lizard;

namespace {

template <class R> void expectClientError(const R& r)
{
    if (!r)
        FUZZ_CHECK(r.error().kind == ErrorKind::InvalidArgument && !r.error().code.empty());
}

void readFields(const nlohmann::json& body)
{
    api::Fields f(body);
    for (const char* name : {"cmd", "cwd", "user", "envs", "metadata", "timeoutMs", "name", "path",
                             "size", "sizeGb", "snapshotId", "projectId", "stream"}) {
        (void)f.has(name);
        expectClientError(f.optString(name));
        if (auto s = f.requiredString(name))
            FUZZ_CHECK(!s->empty());
        expectClientError(f.optBool(name));
        auto number = f.optInt(name);
        expectClientError(number);
        // An integer is read as itself: never wrapped into another (negative) value.
        if (const auto it = body.find(name); number && *number && it->is_number_unsigned())
            FUZZ_CHECK(uint64_t(**number) == it->get<uint64_t>() && **number >= 0);
        if (const auto it = body.find(name);
            number && *number && it->is_number_integer() && !it->is_number_unsigned())
            FUZZ_CHECK(**number == it->get<int64_t>());
        expectClientError(f.stringMap(name));
        expectClientError(f.stringArray(name));
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    http::Request request{http::bhttp::verb::post, "/api/sandboxes/x/exec", 11};
    request.body().assign(reinterpret_cast<const char*>(data), size);
    auto body = api::parseJsonObject(request);
    expectClientError(body);
    if (!body)
        return 0;
    FUZZ_CHECK(body.value().is_object());
    readFields(body.value());

    if (auto exec = api::parseExec(body.value()))
        FUZZ_CHECK(!exec->request.argv.empty() && !exec->request.argv.front().empty());
    else
        expectClientError(exec);

    nlohmann::json extra = nlohmann::json::object();
    if (auto gb = api::volumeSize(body.value(), api::kDefaultVolumeGb, extra))
        FUZZ_CHECK(*gb >= 1 && *gb <= api::kMaxVolumeGb);
    else
        expectClientError(gb);
    if (auto name = body.value().find("name"); name != body.value().end() && name->is_string())
        expectClientError(api::validVolumeName(name->get<std::string>()));
    if (auto sz = body.value().find("size"); sz != body.value().end() && sz->is_string())
        (void)api::limitsForSize(sz->get<std::string>());
    return 0;
}
