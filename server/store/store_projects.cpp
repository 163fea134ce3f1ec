// Store: projects of the single local workspace.
#include "common/crypto.h"
#include "common/timeutil.h"
#include "store/store.h"

#include <algorithm>
#include <cctype>

namespace lizard::store {

namespace {

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::string slugify(const std::string& name)
{
    std::string slug;
    for (unsigned char c : name) {
        if (std::isalnum(c))
            slug.push_back(char(std::tolower(c)));
        else if (!slug.empty() && slug.back() != '-')
            slug.push_back('-');
        if (slug.size() >= 48)
            break;
    }
    while (!slug.empty() && slug.back() == '-')
        slug.pop_back();
    return slug.empty() ? "project" : slug;
}

} // namespace

Status Store::loadProjects()
{
    std::lock_guard lock(m_db->mutex());
    Statement q(m_db->handle(), "SELECT id, name, slug, workspace_id, created_at FROM projects");
    while (q.step())
        m_projects[q.text(0)] =
            ProjectRecord{q.text(0), q.text(1), q.text(2), q.text(3), q.integer(4)};
    if (q.failed())
        return m_db->failure("cannot read projects");
    return okStatus();
}

std::vector<ProjectRecord> Store::projects() const
{
    std::shared_lock lock(m_mutex);
    std::vector<ProjectRecord> out;
    for (const auto& [id, p] : m_projects)
        out.push_back(p);
    std::sort(out.begin(), out.end(), [](const ProjectRecord& a, const ProjectRecord& b) {
        return a.createdAtMs != b.createdAtMs ? a.createdAtMs < b.createdAtMs : a.id < b.id;
    });
    return out;
}

std::optional<ProjectRecord> Store::project(const std::string& id) const
{
    std::shared_lock lock(m_mutex);
    const auto it = m_projects.find(id);
    if (it == m_projects.end())
        return std::nullopt;
    return it->second;
}

std::optional<ProjectRecord> Store::projectBySlug(const std::string& slug) const
{
    std::shared_lock lock(m_mutex);
    for (const auto& [id, p] : m_projects) {
        if (p.slug == slug)
            return p;
    }
    return std::nullopt;
}

// SDKs resolve a project reference against ids, slugs and names case-insensitively, so a
// new name must not equal any other project's name, slug or id.
std::optional<std::string> Store::nameConflict(const std::string& name,
                                               const std::string& exceptId) const
{
    const std::string n = lower(name);
    std::shared_lock lock(m_mutex);
    for (const auto& [id, p] : m_projects) {
        if (id == exceptId)
            continue;
        if (lower(p.name) == n || lower(p.slug) == n || lower(p.id) == n)
            return p.id;
    }
    return std::nullopt;
}

std::string Store::uniqueSlug(const std::string& name) const
{
    const std::string base = slugify(name);
    std::shared_lock lock(m_mutex);
    auto taken = [&](const std::string& s) {
        return std::any_of(m_projects.begin(), m_projects.end(), [&](const auto& kv) {
            return kv.second.slug == s || lower(kv.second.name) == s || lower(kv.second.id) == s;
        });
    };
    std::string slug = base;
    for (int i = 2; taken(slug); ++i)
        slug = base + "-" + std::to_string(i);
    return slug;
}

Result<ProjectRecord> Store::createProject(const std::string& name, const std::string& slug)
{
    std::lock_guard writer(m_writeMutex);
    if (auto other = nameConflict(name, {}))
        return Error{ErrorKind::Conflict, "CONFLICT",
                     "a project named \"" + name + "\" already exists (" + *other + ")"};
    ProjectRecord p;
    p.id = "proj_" + randomLowerAlnum(16);
    p.name = name;
    p.slug = slug.empty() ? uniqueSlug(name) : slug;
    p.createdAtMs = nowMs();
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(
            m_db->handle(),
            "INSERT INTO projects(id, name, slug, workspace_id, created_at) VALUES (?,?,?,?,?)");
        q.bind(1, p.id)
            .bind(2, p.name)
            .bind(3, p.slug)
            .bind(4, p.workspaceId)
            .bind(5, p.createdAtMs);
        if (!q.run())
            return m_db->failure("cannot store the project");
    }
    std::unique_lock lock(m_mutex);
    m_projects[p.id] = p;
    return p;
}

Result<ProjectRecord> Store::renameProject(const std::string& id, const std::string& name)
{
    std::lock_guard writer(m_writeMutex);
    auto p = project(id);
    if (!p)
        return Error{ErrorKind::NotFound, "NOT_FOUND", "project " + id + " not found"};
    if (auto other = nameConflict(name, id))
        return Error{ErrorKind::Conflict, "CONFLICT",
                     "a project named \"" + name + "\" already exists (" + *other + ")"};
    {
        std::lock_guard lock(m_db->mutex());
        Statement q(m_db->handle(), "UPDATE projects SET name = ? WHERE id = ?");
        q.bind(1, name).bind(2, id);
        if (!q.run())
            return m_db->failure("cannot rename the project");
    }
    p->name = name;
    std::unique_lock lock(m_mutex);
    m_projects[id] = *p;
    return *p;
}

Status Store::deleteProject(const std::string& id)
{
    std::lock_guard writer(m_writeMutex);
    if (!project(id))
        return Error{ErrorKind::NotFound, "NOT_FOUND", "project " + id + " not found"};
    if (const auto snaps = snapshots(id); !snaps.empty()) // restorable only in this project
        return Error{ErrorKind::Conflict, "CONFLICT",
                     "project " + id + " still has " + std::to_string(snaps.size()) +
                         " snapshot(s); delete them first"};
    if (const auto running = runningSandboxes(id); !running.empty())
        return Error{ErrorKind::Conflict, "CONFLICT",
                     "project " + id + " still has " + std::to_string(running.size()) +
                         " running sandbox(es); kill them first"};
    if (const auto vols = volumes(id); !vols.empty()) // their files would be lost with it
        return Error{ErrorKind::Conflict, "CONFLICT",
                     "project " + id + " still has " + std::to_string(vols.size()) +
                         " volume(s); delete them first"};
    {
        std::lock_guard lock(m_db->mutex());
        Statement del(m_db->handle(),
                      "DELETE FROM sandboxes WHERE project_id = ? AND status != 'running'");
        del.bind(1, id);
        Statement q(m_db->handle(), "DELETE FROM projects WHERE id = ?");
        q.bind(1, id);
        if (!del.run() || !q.run())
            return m_db->failure("cannot delete the project");
    }
    std::unique_lock lock(m_mutex);
    m_projects.erase(id);
    std::erase_if(m_sandboxes, [&](const auto& kv) { return kv.second->projectId == id; });
    return okStatus();
}

} // namespace lizard::store
