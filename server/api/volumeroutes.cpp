// Volumes of a project: create (or get), list, get by name or id, grow, delete. The storage
// work (mkfs, resize, removal) runs on the worker pool.
#include "api/jsonbody.h"
#include "api/routes.h"
#include "api/volumerequest.h"
#include "common/crypto.h"
#include "common/log.h"
#include "common/timeutil.h"
#include "sandboxes/sandboxmanager.h"
#include "store/store.h"

namespace lizard::api {

using http::bhttp::verb;
using ExPtr = std::shared_ptr<http::Exchange>;

namespace {

struct VolumeApi
{
    store::Store& st;
    sandboxes::SandboxManager& mgr;

    std::optional<store::ProjectRecord> project(const ExPtr& ex, const std::string& ref) const
    {
        auto p = st.project(ref);
        if (!p)
            p = st.projectBySlug(ref);
        if (!p)
            ex->replyError(
                Error{ErrorKind::NotFound, "NOT_FOUND", "project " + ref + " not found"});
        return p;
    }

    std::optional<store::VolumeRecord> volume(const ExPtr& ex, const Params& p) const
    {
        const auto proj = project(ex, p[0]);
        if (!proj)
            return std::nullopt;
        auto v = st.volume(proj->id, p[1]);
        if (!v)
            ex->replyError(Error{ErrorKind::NotFound, "NOT_FOUND",
                                 "volume " + p[1] + " not found in project " + p[0]});
        return v;
    }

    void replyVolume(const ExPtr& ex, const std::string& projectId, const std::string& id) const
    {
        if (const auto v = st.volume(projectId, id))
            return ex->replyJson(200, volumeJson(*v, st.volumeHolder(*v)));
        ex->replyError(Error{ErrorKind::NotFound, "NOT_FOUND", "volume " + id + " not found"});
    }

    void create(const ExPtr& ex, const Params& p) const;
    void resize(const ExPtr& ex, const Params& p) const;
    void remove(const ExPtr& ex, const Params& p) const;
};

void VolumeApi::create(const ExPtr& ex, const Params& p) const
{
    const auto proj = project(ex, p[0]);
    if (!proj)
        return;
    auto body = parseJsonObject(ex->request());
    if (!body)
        return ex->replyError(body.error());
    Fields f(*body);
    auto name = f.requiredString("name");
    if (!name)
        return ex->replyError(name.error());
    if (Status s = validVolumeName(*name); !s)
        return ex->replyError(s.error());
    nlohmann::json extra = nlohmann::json::object();
    auto size = volumeSize(*body, kDefaultVolumeGb, extra);
    if (!size)
        return ex->replyError(size.error(), extra);
    auto region = f.optString("region");
    if (!region)
        return ex->replyError(region.error());
    if (*region && **region != "local")
        return ex->replyError(invalidArgument(
            "region " + **region + " is not available; lizard-local has one region: local"));
    auto getOrCreate = f.optBool("getOrCreate");
    if (!getOrCreate)
        return ex->replyError(getOrCreate.error());
    const bool orGet = getOrCreate->value_or(false);
    if (const auto existing = st.volume(proj->id, *name)) {
        if (orGet) // an existing volume keeps its size
            return ex->replyJson(200, volumeJson(*existing, st.volumeHolder(*existing)));
        return ex->replyError(Error{ErrorKind::Conflict, "VOLUME_EXISTS",
                                    "the project already has a volume named \"" + *name + "\""});
    }
    store::VolumeRecord v;
    v.id = "vol_" + randomLowerAlnum(16);
    v.projectId = proj->id;
    v.name = *name;
    v.sizeGb = *size;
    v.createdAtMs = nowMs();
    mgr.runOnWorker([this, ex, v, orGet]() mutable {
        runtime::VolumeStorage* storage = mgr.volumeStorage();
        auto made = storage ? storage->create(v.id, v.sizeGb)
                            : Result<bool>(Error{ErrorKind::NotImplemented, "NOT_IMPLEMENTED",
                                                 "no volume storage"});
        if (made)
            v.sizeEnforced = *made;
        Status stored = made ? st.insertVolume(v) : Status(made.error());
        if (made && !stored)
            storage->remove(v.id); // lost a race for the name, or the store failed
        onExchange(ex, [this, ex, v, made, stored, orGet] {
            if (!made)
                return ex->replyError(made.error());
            if (!stored && stored.error().kind == ErrorKind::Conflict && orGet)
                return replyVolume(ex, v.projectId, v.name);
            if (!stored)
                return ex->replyError(stored.error());
            log::info("volume " + v.id + " (" + v.name + ", " + std::to_string(v.sizeGb) + " GB, " +
                      (v.sizeEnforced ? "ext4 image" : "directory, size not enforced") +
                      ") created");
            replyVolume(ex, v.projectId, v.id);
        });
    });
}

void VolumeApi::resize(const ExPtr& ex, const Params& p) const
{
    const auto v = volume(ex, p);
    if (!v)
        return;
    auto body = parseJsonObject(ex->request());
    if (!body)
        return ex->replyError(body.error());
    nlohmann::json extra = nlohmann::json::object();
    auto size = volumeSize(*body, 0, extra);
    if (!size)
        return ex->replyError(size.error(), extra);
    if (*size < v->sizeGb)
        return ex->replyError(Error{ErrorKind::InvalidArgument, "VOLUME_SHRINK_UNSUPPORTED",
                                    "a volume can only grow: it has " + std::to_string(v->sizeGb) +
                                        " GB, asked for " + std::to_string(*size)},
                              {{"code", "volume_shrink_unsupported"}});
    if (*size == v->sizeGb)
        return ex->replyJson(200, volumeJson(*v, st.volumeHolder(*v)));
    pid_t holderPid = 0;
    if (const std::string holder = st.volumeHolder(*v); !holder.empty()) {
        const auto sb = st.sandbox(holder);
        if (!sb)
            return ex->replyError(Error{ErrorKind::Conflict, "VOLUME_RESIZE_IN_PROGRESS",
                                        "the volume is being attached to a sandbox; try again"},
                                  {{"code", "volume_resize_in_progress"}});
        holderPid = sb->handle.initPid;
    }
    const int newSize = *size;
    mgr.runOnWorker([this, ex, v = *v, newSize, holderPid] {
        auto grown = mgr.volumeStorage()->grow(v.id, newSize, v.sizeEnforced, holderPid);
        Status s = grown ? st.setVolumeSize(v.id, newSize, v.sizeEnforced) : Status(grown.error());
        onExchange(ex, [this, ex, v, s, online = grown && *grown] {
            if (!s)
                return ex->replyError(s.error());
            const auto now = st.volume(v.projectId, v.id);
            if (!now)
                return ex->replyError(
                    Error{ErrorKind::NotFound, "NOT_FOUND", "volume " + v.id + " was deleted"});
            nlohmann::json out = volumeJson(*now, st.volumeHolder(*now));
            if (!online)
                out["resizeOnNextAttach"] = true; // the running sandbox keeps the old size
            ex->replyJson(200, out);
        });
    });
}

void VolumeApi::remove(const ExPtr& ex, const Params& p) const
{
    const auto v = volume(ex, p);
    if (!v)
        return;
    if (Status s = st.removeVolume(v->id); !s) // 409 while attached; nothing attaches after
        return ex->replyError(s.error());
    mgr.runOnWorker([this, ex, v = *v] {
        if (Status s = mgr.volumeStorage()->remove(v.id); !s)
            log::warn("volume " + v.id + " deleted, but its files remain: " + s.error().message);
        else
            log::info("volume " + v.id + " (" + v.name + ") deleted");
        onExchange(ex, [ex] { ex->replyEmpty(); });
    });
}

} // namespace

void registerVolumeRoutes(Router& router, ApiContext& ctx)
{
    auto api = std::make_shared<VolumeApi>(VolumeApi{ctx.store, ctx.sandboxes});
    router.add(verb::get, "/api/projects/{}/volumes", [api](const ExPtr& ex, const Params& p) {
        const auto proj = api->project(ex, p[0]);
        if (!proj)
            return;
        nlohmann::json out = nlohmann::json::array();
        for (const auto& v : api->st.volumes(proj->id))
            out.push_back(volumeJson(v, api->st.volumeHolder(v)));
        ex->replyJson(200, out);
    });
    router.add(verb::post, "/api/projects/{}/volumes",
               [api](const ExPtr& ex, const Params& p) { api->create(ex, p); });
    router.add(verb::get, "/api/projects/{}/volumes/{}", [api](const ExPtr& ex, const Params& p) {
        if (const auto v = api->volume(ex, p))
            ex->replyJson(200, volumeJson(*v, api->st.volumeHolder(*v)));
    });
    router.add(verb::patch, "/api/projects/{}/volumes/{}",
               [api](const ExPtr& ex, const Params& p) { api->resize(ex, p); });
    router.add(verb::delete_, "/api/projects/{}/volumes/{}",
               [api](const ExPtr& ex, const Params& p) { api->remove(ex, p); });
}

} // namespace lizard::api
