#pragma once
// The runs one serve-mode code runner answers (resources/runner/PROTOCOL.md, "Serve mode"):
// its stdout interleaves the events of several requests, each tagged with "req". Each run
// request noted by the files route (runnerrequests.h) becomes a runCode entry once its last
// event ("done", "fatal") arrives, with the code, the context and the events, as a one-shot
// run's entry. Other requests (completion, inspection, the variable explorer) are the app's
// own and are not recorded.

#include "sandboxes/execactivity.h"

#include <map>
#include <string>
#include <string_view>

namespace lizard::sandboxes {

class ActivityLog;

class ServeRuns
{
public:
    ServeRuns(ActivityLog* log, std::string sandboxId, std::string user);
    void feed(std::string_view chunk); // the serve exec's stdout
    // The serve exec ended: runs without their last event are recorded as cut short.
    void finish();

private:
    struct Run
    {
        nlohmann::json entry;
        int64_t startMs = 0;
        RunnerEvents events;
    };
    void line(std::string_view text);
    void record(Run& run, nlohmann::json fields);

    ActivityLog* m_log;
    std::string m_sandboxId;
    std::string m_user;
    std::string m_inbox; // from the runner's "ready" event
    LineReader m_lines{kActivityEventBytes};
    std::map<std::string, Run> m_runs; // by req
};

} // namespace lizard::sandboxes
