#pragma once
// One build of a template from its recipe. Each step's result is a layer: a snapshot of the
// build's sandbox after that step, keyed by everything that made it (the base, and every step
// up to it with its files, env and workdir). The steps whose keys have a layer are skipped;
// the build sandbox starts from the last of those (or from the base) and runs the rest, each
// as root under the sandbox's usual confinement, with the network, its output in the build's
// log. A failed step ends the build with its exit code; the template's versions stay as they
// were. At the end the last layer is the template's new version.

#include "common/result.h"
#include "sandboxes/templates/buildlog.h"
#include "sandboxes/templates/recipe.h"
#include "store/templaterecords.h"

#include <boost/asio/any_io_executor.hpp>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace lizard::runtime {
class AgentClient;
class Cancel;
} // namespace lizard::runtime

namespace lizard::sandboxes {

class SandboxManager;
class TemplateBuilder;

struct BuildPlan
{
    std::string name;
    std::string recipeText;
    Recipe recipe;
    std::map<std::string, std::string> files; // a files step's source → its content
    std::string base;                         // the built-in template under it
    std::string fromSnapshot;      // the files of the template it is built from ("" for a built-in)
    std::string projectId;         // where its sandbox and snapshots are
    std::vector<std::string> keys; // one per step
    int64_t timeoutMs = 0;
};

class TemplateBuild : public std::enable_shared_from_this<TemplateBuild>
{
public:
    TemplateBuild(TemplateBuilder& builder, SandboxManager& sandboxes,
                  boost::asio::any_io_executor io, BuildPlan plan,
                  store::TemplateBuildRecord record, std::shared_ptr<BuildLog> log);

    void start();
    // Ends the build (its template is being deleted, or the server stops): "interrupted".
    void cancel(const std::string& why);

    const std::string& id() const { return m_record.id; }
    store::TemplateBuildRecord record() const;
    const std::shared_ptr<BuildLog>& log() const { return m_log; }

private:
    void createSandbox(int first, const std::string& filesFrom);
    void runStep(int index);
    void stepEnded(int index, int exitCode, bool timedOut);
    void snapshotStep(int index);
    void writeFiles(int index, size_t file);
    void succeed(const std::string& snapshotId, int64_t sizeBytes);
    void fail(int step, std::optional<int> exitCode, std::string error);
    void end(store::TemplateBuildRecord record);
    std::vector<std::string> stepArgv(const RecipeStep& step) const;
    int64_t remainingMs() const;
    bool cancelled() const;

    TemplateBuilder& m_builder;
    SandboxManager& m_sandboxes;
    boost::asio::any_io_executor m_io;
    const BuildPlan m_plan;
    std::shared_ptr<BuildLog> m_log;

    mutable std::mutex m_mutex; // guards what follows
    store::TemplateBuildRecord m_record;
    std::string m_sandboxId;
    std::shared_ptr<runtime::AgentClient> m_agent;
    std::shared_ptr<runtime::Cancel> m_exec;
    std::string m_cancelled; // why, once cancelled
    bool m_ended = false;
};

} // namespace lizard::sandboxes
