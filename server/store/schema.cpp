// Schema migrations of lizard.db. Append new steps; never edit a released one.
#include "store/database.h"

#include <sqlite3.h>
#include <string>
#include <vector>

namespace lizard::store {

namespace {

const std::vector<std::string>& migrations()
{
    static const std::vector<std::string> steps = {
        // 1: keys, one local workspace's projects, sandboxes (with the runtime handle).
        R"sql(
        CREATE TABLE api_keys (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            hash TEXT NOT NULL UNIQUE,
            prefix TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE projects (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            slug TEXT NOT NULL UNIQUE,
            workspace_id TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE sandboxes (
            id TEXT PRIMARY KEY,
            project_id TEXT NOT NULL,
            template TEXT NOT NULL,
            size TEXT NOT NULL,
            cpus REAL NOT NULL,
            memory_mb INTEGER NOT NULL,
            limits_enforced INTEGER NOT NULL,
            status TEXT NOT NULL,
            started_at INTEGER NOT NULL,
            end_at INTEGER NOT NULL,
            metadata TEXT NOT NULL,
            envs TEXT NOT NULL,
            internet_access INTEGER NOT NULL,
            init_pid INTEGER NOT NULL,
            init_start_time INTEGER NOT NULL,
            socket_path TEXT NOT NULL,
            stopped_at INTEGER NOT NULL DEFAULT 0,
            stop_reason TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX sandboxes_status ON sandboxes(status);
        )sql",
        // 2: volumes (attached_to: the sandbox holding it, see Store::volumeHolder).
        R"sql(
        CREATE TABLE volumes (
            id TEXT PRIMARY KEY,
            project_id TEXT NOT NULL,
            name TEXT NOT NULL,
            size_gb INTEGER NOT NULL,
            size_enforced INTEGER NOT NULL,
            attached_to TEXT NOT NULL DEFAULT '',
            created_at INTEGER NOT NULL,
            UNIQUE(project_id, name)
        );
        )sql",
        // 3: pause (status 'paused', the last pause error) and snapshots of sandboxes' files.
        R"sql(
        ALTER TABLE sandboxes ADD COLUMN pause_error TEXT NOT NULL DEFAULT '';
        CREATE TABLE snapshots (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            project_id TEXT NOT NULL,
            source_sandbox_id TEXT NOT NULL,
            template TEXT NOT NULL,
            size TEXT NOT NULL,
            cpus REAL NOT NULL,
            memory_mb INTEGER NOT NULL,
            envs TEXT NOT NULL,
            internet_access INTEGER NOT NULL,
            status TEXT NOT NULL,
            error TEXT NOT NULL DEFAULT '',
            size_bytes INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX snapshots_project ON snapshots(project_id);
        )sql",
        // 4: exposed sandbox ports (the port proxy); token is the sandbox's access token.
        R"sql(
        CREATE TABLE exposures (
            sandbox_id TEXT NOT NULL,
            port INTEGER NOT NULL,
            address TEXT NOT NULL UNIQUE,
            token TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY(sandbox_id, port)
        );
        )sql",
        // 5: the disk size of a snapshot's source (0: not bounded), the default of a restore.
        R"sql(
        ALTER TABLE snapshots ADD COLUMN disk_gb INTEGER NOT NULL DEFAULT 0;
        )sql",
        // 6: several API keys: scope, last use, and which one is the key file's (every key
        // before this version was).
        R"sql(
        ALTER TABLE api_keys ADD COLUMN read_only INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE api_keys ADD COLUMN bootstrap INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER NOT NULL DEFAULT 0;
        UPDATE api_keys SET bootstrap = 1;
        )sql",
        // 7: allowedHosts of a sandbox (a JSON array of strings), kept for its forks.
        R"sql(
        ALTER TABLE sandboxes ADD COLUMN allowed_hosts TEXT NOT NULL DEFAULT '[]';
        )sql",
        // 8: the size of /dev/shm, kept for forks and restores (0: from before it had one).
        R"sql(
        ALTER TABLE sandboxes ADD COLUMN shm_mb INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE snapshots ADD COLUMN shm_mb INTEGER NOT NULL DEFAULT 0;
        )sql",
        // 9: warm pools: a snapshot's pool size and whether it is paused, the size of each
        // template's pool where it was changed from lizard-local's default, and whether a
        // sandbox was a warm copy when its create claimed it.
        R"sql(
        ALTER TABLE sandboxes ADD COLUMN from_pool INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE snapshots ADD COLUMN pool_size INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE snapshots ADD COLUMN pool_paused INTEGER NOT NULL DEFAULT 0;
        CREATE TABLE template_pools (
            template TEXT PRIMARY KEY,
            pool_size INTEGER NOT NULL
        );
        )sql",
        // 10: lifecycle policies: what the deadline does (kill or pause), the idle pause, the
        // lifetime a resume after a pause at the deadline starts again (older rows: their
        // deadline's), and who paused a paused sandbox (older rows: the user).
        R"sql(
        ALTER TABLE sandboxes ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'kill';
        ALTER TABLE sandboxes ADD COLUMN idle_pause_minutes INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sandboxes ADD COLUMN timeout_ms INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sandboxes ADD COLUMN paused_by TEXT NOT NULL DEFAULT '';
        UPDATE sandboxes SET timeout_ms = end_at - started_at WHERE end_at > 0;
        UPDATE sandboxes SET paused_by = 'user' WHERE status = 'paused';
        )sql",
        // 11: schedules of sandboxes and their runs (sandboxes/schedules/). A schedule goes with
        // its sandbox: the triggers delete it when the sandbox stops or its row goes.
        R"sql(
        CREATE TABLE schedules (
            id TEXT PRIMARY KEY,
            sandbox_id TEXT NOT NULL,
            name TEXT NOT NULL,
            every TEXT NOT NULL,
            every_seconds INTEGER NOT NULL,
            cron TEXT NOT NULL,
            timezone TEXT NOT NULL,
            command TEXT NOT NULL,
            timeout_seconds INTEGER NOT NULL,
            enabled INTEGER NOT NULL,
            disabled_reason TEXT NOT NULL,
            anchor_at INTEGER NOT NULL,
            next_run_at INTEGER NOT NULL,
            last_run_at INTEGER NOT NULL,
            last_status TEXT NOT NULL,
            consecutive_failures INTEGER NOT NULL,
            skipped_count INTEGER NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX schedules_sandbox ON schedules(sandbox_id);
        CREATE TABLE schedule_runs (
            id TEXT PRIMARY KEY,
            schedule_id TEXT NOT NULL,
            sandbox_id TEXT NOT NULL,
            status TEXT NOT NULL,
            woke INTEGER NOT NULL,
            slept INTEGER NOT NULL,
            started_at INTEGER NOT NULL,
            ended_at INTEGER NOT NULL,
            exit_code INTEGER,
            output TEXT NOT NULL,
            error TEXT NOT NULL
        );
        CREATE INDEX schedule_runs_schedule ON schedule_runs(schedule_id, started_at);
        CREATE INDEX schedule_runs_status ON schedule_runs(status);
        CREATE TRIGGER schedules_end_with_sandbox AFTER UPDATE OF status ON sandboxes
        WHEN NEW.status = 'stopped' BEGIN
            DELETE FROM schedule_runs WHERE sandbox_id = NEW.id;
            DELETE FROM schedules WHERE sandbox_id = NEW.id;
        END;
        CREATE TRIGGER schedules_go_with_sandbox AFTER DELETE ON sandboxes BEGIN
            DELETE FROM schedule_runs WHERE sandbox_id = OLD.id;
            DELETE FROM schedules WHERE sandbox_id = OLD.id;
        END;
        )sql",
        // 12: templates built from recipes (sandboxes/templates/): their versions, their builds
        // and the layers their builds cached. Each version and layer is a snapshot's files.
        R"sql(
        CREATE TABLE template_versions (
            name TEXT NOT NULL,
            version INTEGER NOT NULL,
            snapshot_id TEXT NOT NULL,
            base TEXT NOT NULL,
            recipe TEXT NOT NULL,
            envs TEXT NOT NULL,
            workdir TEXT NOT NULL,
            build_id TEXT NOT NULL,
            size_bytes INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (name, version)
        );
        CREATE TABLE template_builds (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            status TEXT NOT NULL,
            recipe TEXT NOT NULL,
            steps INTEGER NOT NULL,
            cached_steps INTEGER NOT NULL,
            failed_step INTEGER NOT NULL,
            exit_code INTEGER,
            error TEXT NOT NULL,
            version INTEGER NOT NULL,
            started_at INTEGER NOT NULL,
            ended_at INTEGER NOT NULL
        );
        CREATE INDEX template_builds_name ON template_builds(name, started_at);
        CREATE TABLE template_layers (
            key TEXT PRIMARY KEY,
            snapshot_id TEXT NOT NULL,
            template TEXT NOT NULL,
            step TEXT NOT NULL,
            size_bytes INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            last_used_at INTEGER NOT NULL
        );
        )sql",
    };
    return steps;
}

} // namespace

Status migrate(Database& db)
{
    std::lock_guard lock(db.mutex());
    if (Status s = db.exec("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
        !s)
        return s;
    int64_t version = 0;
    {
        Statement q(db.handle(), "SELECT MAX(version) FROM schema_version");
        if (q.step() && !q.isNull(0))
            version = q.integer(0);
    }
    const auto& steps = migrations();
    if (version > int64_t(steps.size()))
        return Error{ErrorKind::Internal, "STORE",
                     "lizard.db has schema version " + std::to_string(version) +
                         ", newer than this lizard-local knows (" + std::to_string(steps.size()) +
                         "); upgrade lizard-local"};
    for (size_t i = size_t(version); i < steps.size(); ++i) {
        Status s = db.exec("BEGIN IMMEDIATE");
        if (s)
            s = db.exec(steps[i]);
        if (s)
            s = db.exec("INSERT INTO schema_version(version) VALUES (" + std::to_string(i + 1) +
                        ")");
        if (s)
            s = db.exec("COMMIT");
        if (!s) {
            db.exec("ROLLBACK");
            return s;
        }
    }
    return okStatus();
}

} // namespace lizard::store
