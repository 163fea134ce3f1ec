#include "api/wakegate.h"

#include "api/routes.h"
#include "api/routetable.h"
#include "sandboxes/sandboxmanager.h"

#include <array>

namespace lizard::api {

using http::bhttp::verb;

namespace {

// What follows /api/sandboxes/{id}/ in the paths that use the sandbox ("*" is any segment).
struct UseRule
{
    verb method;
    std::array<const char*, 3> tail; // nullptr ends it
    const char* what;
    bool holds;
};

constexpr UseRule kUses[] = {
    {verb::post, {"exec"}, "exec", true},
    {verb::get, {"processes"}, "processes", true},
    {verb::post, {"processes", "signal"}, "processes", true},
    {verb::post, {"processes", "tree", "signal"}, "processes", true},
    {verb::get, {"files"}, "files", true},
    {verb::post, {"files"}, "files", true},
    {verb::delete_, {"files"}, "files", true},
    {verb::get, {"files", "list"}, "files", true},
    {verb::get, {"files", "stat"}, "files", true},
    {verb::post, {"files", "move"}, "files", true},
    {verb::post, {"terminals"}, "terminals", true},
    {verb::get, {"terminals", "*", "attach"}, "terminals", false},
    {verb::post, {"terminals", "*", "signal"}, "terminals", true},
    {verb::post, {"desktop"}, "desktop", true},
    {verb::delete_, {"desktop"}, "desktop", true},
};

bool matches(const UseRule& rule, const std::vector<std::string>& segments)
{
    size_t n = 0;
    while (n < rule.tail.size() && rule.tail[n] != nullptr)
        ++n;
    if (segments.size() != 3 + n)
        return false;
    for (size_t i = 0; i < n; ++i) {
        if (std::string_view(rule.tail[i]) != "*" && segments[3 + i] != rule.tail[i])
            return false;
    }
    return true;
}

} // namespace

std::optional<SandboxUse> sandboxUse(verb method, std::string_view path)
{
    const std::vector<std::string> segments = splitPath(path);
    if (segments.size() < 4 || segments[0] != "api" || segments[1] != "sandboxes")
        return std::nullopt;
    for (const UseRule& rule : kUses) {
        if (rule.method == method && matches(rule, segments))
            return SandboxUse{segments[2], rule.what, rule.holds};
    }
    return std::nullopt;
}

void WakeGate::operator()(const std::shared_ptr<http::Exchange>& ex,
                          std::function<void()> route) const
{
    const auto use = sandboxUse(ex->request().method(), ex->path());
    if (!use)
        return route();
    sandboxes::IdleWatch& idle = m_manager->idle();
    if (use->holds) {
        if (auto held = idle.hold(use->sandboxId))
            ex->keep(std::move(held));
    }
    if (!idle.touch(use->sandboxId))
        return route();
    idle.wake(use->sandboxId, use->what, [ex, route = std::move(route)](Status woke) {
        onExchange(ex, [ex, route, woke] {
            // NOT_FOUND (killed meanwhile) is the route's own answer; a failed resume is not.
            if (!woke && woke.error().kind != ErrorKind::NotFound)
                return ex->replyError(woke.error());
            route();
        });
    });
}

} // namespace lizard::api
