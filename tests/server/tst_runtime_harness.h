#pragma once
// Drives lizard::runtime directly (no HTTP): a Runtime on a temporary data dir and
// synchronous wrappers around the asio AgentClient for the runtime and isolation suites.

#include "http/responses.h"
#include "runtime/agentclient.h"
#include "runtime/agenttool.h"
#include "runtime/idmapping.h"
#include "runtime/runtime.h"
#include "support/sandboxpolicy.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>
#include <boost/asio/io_context.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace lizard::test {

struct ExecOutcome
{
    bool started = false;
    bool finished = false;
    int pid = 0;
    std::string out, err;
    int exitCode = -1;
    bool timedOut = false;
    std::optional<Error> error;
};

// Destroys a sandbox when the test function leaves, also through a failed QVERIFY.
class SandboxGuard
{
public:
    SandboxGuard(runtime::Runtime& rt, runtime::SandboxHandle h) : m_rt(rt), m_h(std::move(h)) {}
    ~SandboxGuard() { m_rt.destroy(m_h); }
    SandboxGuard(const SandboxGuard&) = delete;
    SandboxGuard& operator=(const SandboxGuard&) = delete;

private:
    runtime::Runtime& m_rt;
    runtime::SandboxHandle m_h;
};

class RuntimeHarness
{
public:
    ~RuntimeHarness()
    {
        if (!m_dir)
            return;
        m_runtime.reset();
        // Template files belong to sandbox uids (subordinate ids when not root): remove them
        // the way the runtime removes sandboxes, so the temporary dir can go.
        nlohmann::json config{{"mode", "remove"},
                              {"idMap", runtime::chooseIdMapping().toJson()},
                              {"target", dataDir() + "/templates"}};
        runtime::runAgentTool(runtime::findAgentBinary(), "remove", config, 60000);
    }

    // Creates the runtime on a fresh data dir; false (with *why) if that failed.
    bool init(QString* why)
    {
        m_dir = std::make_unique<QTemporaryDir>("/tmp/lzrt-XXXXXX");
        auto rt = runtime::Runtime::create(m_dir->path().toStdString() + "/data");
        if (!rt) {
            *why = QString::fromStdString(rt.error().message);
            return false;
        }
        m_runtime = std::move(rt.value());
        return true;
    }

    runtime::Runtime& rt() { return *m_runtime; }

    // The sandbox's cgroup directory of controller `ctrl` ("pids", ... or "" for v2), if any.
    static QString cgroupDir(const QString& ctrl, const std::string& id)
    {
        const QString top = ctrl.isEmpty() ? QString("/sys/fs/cgroup/lizard-local")
                                           : "/sys/fs/cgroup/" + ctrl + "/lizard-local";
        for (const QString& instance : QDir(top).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            const QString dir = top + "/" + instance + "/" + QString::fromStdString(id);
            if (QFileInfo(dir).isDir())
                return dir;
        }
        return {};
    }

    // What the sandbox's agent wrote to stderr (for failure messages).
    QByteArray agentLog(const std::string& id) const
    {
        QFile f(QString::fromStdString(dataDir() + "/sandboxes/" + id + "/agent.log"));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(no agent.log)");
    }
    std::string dataDir() const { return m_dir->path().toStdString() + "/data"; }
    boost::asio::io_context& io() { return m_io; }

    // Runs the io_context until `done()` or `ms` passed.
    bool runUntil(const std::function<bool()>& done, int ms = 30000)
    {
        QElapsedTimer t;
        t.start();
        while (!done() && t.elapsed() < ms) {
            m_io.restart();
            m_io.run_for(std::chrono::milliseconds(5));
        }
        return done();
    }

    std::shared_ptr<runtime::Cancel> startExec(const runtime::SandboxHandle& h,
                                               runtime::ExecRequest req,
                                               std::shared_ptr<ExecOutcome> outcome)
    {
        runtime::AgentClient client(m_io.get_executor(), h.socketPath);
        runtime::ExecHandlers handlers;
        handlers.onStarted = [outcome](int pid) {
            outcome->started = true;
            outcome->pid = pid;
        };
        handlers.onOutput = [outcome](runtime::OutStream s, std::string_view chunk,
                                      std::function<void()> resume) {
            (s == runtime::OutStream::Stdout ? outcome->out : outcome->err).append(chunk);
            resume();
        };
        handlers.onExit = [outcome](int code, bool timedOut) {
            outcome->exitCode = code;
            outcome->timedOut = timedOut;
            outcome->finished = true;
        };
        handlers.onError = [outcome](const Error& e) {
            outcome->error = e;
            outcome->finished = true;
        };
        return client.exec(std::move(req), std::move(handlers));
    }

    ExecOutcome exec(const runtime::SandboxHandle& h, runtime::ExecRequest req, int waitMs = 60000)
    {
        auto outcome = std::make_shared<ExecOutcome>();
        auto cancel = startExec(h, std::move(req), outcome);
        if (!runUntil([&] { return outcome->finished; }, waitMs)) {
            cancel->cancel(); // the agent kills what still runs
            outcome->error =
                Error{ErrorKind::Internal, "TEST_TIMEOUT", "exec did not finish in time"};
        }
        return *outcome;
    }

    ExecOutcome sh(const runtime::SandboxHandle& h, const std::string& script,
                   const std::string& user = "root")
    {
        runtime::ExecRequest req;
        req.argv = {"/bin/sh", "-c", script};
        req.user = user;
        return exec(h, req);
    }

    Result<nlohmann::json> request(const runtime::SandboxHandle& h, nlohmann::json req)
    {
        std::optional<Result<nlohmann::json>> result;
        runtime::AgentClient(m_io.get_executor(), h.socketPath)
            .request(std::move(req), [&](Result<nlohmann::json> r) { result = std::move(r); });
        runUntil([&] { return result.has_value(); });
        return result ? *result
                      : Result<nlohmann::json>(
                            Error{ErrorKind::Internal, "TEST_TIMEOUT", "no answer"});
    }

    Status writeFile(const runtime::SandboxHandle& h, const std::string& path, std::string content,
                     const std::string& user = "root")
    {
        std::optional<Status> result;
        runtime::AgentClient(m_io.get_executor(), h.socketPath)
            .writeFile(path, user, std::move(content), [&](Status s) { result = std::move(s); });
        runUntil([&] { return result.has_value(); });
        return result ? *result : Status(Error{ErrorKind::Internal, "TEST_TIMEOUT", "no answer"});
    }

    Result<std::string> readFile(const runtime::SandboxHandle& h, const std::string& path,
                                 const std::string& user = "root")
    {
        std::optional<Status> result;
        std::string data;
        uint64_t size = 0;
        auto c = runtime::AgentClient(m_io.get_executor(), h.socketPath)
                     .readFile(
                         path, user, [&](uint64_t s) { size = s; },
                         [&](std::string_view chunk, std::function<void()> resume) {
                             data.append(chunk);
                             resume();
                         },
                         [&](Status s) { result = std::move(s); });
        runUntil([&] { return result.has_value(); });
        if (!result)
            return Error{ErrorKind::Internal, "TEST_TIMEOUT", "no answer"};
        if (!*result)
            return result->error();
        if (size != data.size())
            return Error{ErrorKind::Internal, "SIZE_MISMATCH",
                         "announced " + std::to_string(size) + ", got " +
                             std::to_string(data.size())};
        return data;
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<runtime::Runtime> m_runtime;
    boost::asio::io_context m_io;
};

} // namespace lizard::test
