// The store: schema, persistence across reopen, project name rules, sandbox state changes.
#include "http/responses.h"
#include "store/store.h"

#include <QTemporaryDir>
#include <QTest>

using lizard::store::SandboxRecord;
using lizard::store::Store;

class TestStore : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::string path() const { return (m_dir.path() + "/lizard.db").toStdString(); }

    std::unique_ptr<Store> open()
    {
        auto s = Store::open(path());
        if (!s)
            qWarning() << QString::fromStdString(s.error().message);
        return s ? std::move(*s) : nullptr;
    }

private slots:
    void keysPersist()
    {
        auto s = open();
        QVERIFY(s);
        QVERIFY(s->addKey({"key_1", "local", "abc123", "liz_abcd", 1}));
        s.reset();
        s = open(); // migrations run again: nothing breaks, nothing is lost
        QVERIFY(s);
        QVERIFY(s->keyByHash("abc123").has_value());
        QCOMPARE(QString::fromStdString(s->keyByHash("abc123")->prefix),
                 QStringLiteral("liz_abcd"));
        QVERIFY(!s->keyByHash("other").has_value());
        QVERIFY(s->removeKey("key_1"));
        QVERIFY(!s->keyByHash("abc123").has_value());
    }

    // A database of schema version 5 (one key, before scopes existed) opens: its key is the
    // key file's (bootstrap) key with full access and no last use.
    void keysMigrateFromVersion5()
    {
        QTemporaryDir dir;
        const std::string db = (dir.path() + "/old.db").toStdString();
        {
            auto d = lizard::store::Database::open(db);
            QVERIFY(d);
            QVERIFY(lizard::store::migrate(**d));
            std::lock_guard lock((*d)->mutex());
            // Back to version 5: without the columns and tables of versions 6 to 12.
            QVERIFY((*d)->exec("DROP TABLE template_versions;"
                               "DROP TABLE template_builds;"
                               "DROP TABLE template_layers;"
                               "DROP TRIGGER schedules_end_with_sandbox;"
                               "DROP TRIGGER schedules_go_with_sandbox;"
                               "DROP TABLE schedule_runs;"
                               "DROP TABLE schedules;"
                               "ALTER TABLE sandboxes DROP COLUMN on_timeout;"
                               "ALTER TABLE sandboxes DROP COLUMN idle_pause_minutes;"
                               "ALTER TABLE sandboxes DROP COLUMN timeout_ms;"
                               "ALTER TABLE sandboxes DROP COLUMN paused_by;"
                               "ALTER TABLE sandboxes DROP COLUMN from_pool;"
                               "ALTER TABLE snapshots DROP COLUMN pool_size;"
                               "ALTER TABLE snapshots DROP COLUMN pool_paused;"
                               "DROP TABLE template_pools;"
                               "ALTER TABLE sandboxes DROP COLUMN shm_mb;"
                               "ALTER TABLE snapshots DROP COLUMN shm_mb;"
                               "ALTER TABLE sandboxes DROP COLUMN allowed_hosts;"
                               "ALTER TABLE api_keys DROP COLUMN read_only;"
                               "ALTER TABLE api_keys DROP COLUMN bootstrap;"
                               "ALTER TABLE api_keys DROP COLUMN last_used_at;"
                               "DELETE FROM schema_version WHERE version > 5;"
                               "INSERT INTO api_keys(id, name, hash, prefix, created_at) "
                               "VALUES ('key_old', 'local', 'h0', 'liz_old0', 5)"));
        }
        auto s = Store::open(db);
        QVERIFY(s);
        const auto k = (*s)->keyByHash("h0");
        QVERIFY(k);
        QVERIFY(k->bootstrap);
        QVERIFY(!k->readOnly);
        QCOMPARE(k->lastUsedMs, int64_t(0));
    }

    void keyScopeAndLastUsePersist()
    {
        QTemporaryDir dir;
        const std::string db = (dir.path() + "/keys.db").toStdString();
        {
            auto s = Store::open(db);
            QVERIFY(s);
            lizard::store::ApiKeyRecord rec{"key_ro", "viewer", "h1", "liz_ro00", 7};
            rec.readOnly = true;
            QVERIFY((*s)->addKey(rec));
            QVERIFY((*s)->authenticate("h1", 1000));
            QVERIFY((*s)->authenticate("h1", 2000)); // within a minute: memory only
            QVERIFY(!(*s)->authenticate("nope", 2000));
            QCOMPARE((*s)->keyById("key_ro")->lastUsedMs, int64_t(2000));
        }
        auto s = Store::open(db); // closing wrote the newest last use
        QVERIFY(s);
        const auto k = (*s)->keyById("key_ro");
        QVERIFY(k);
        QVERIFY(k->readOnly);
        QVERIFY(!k->bootstrap);
        QCOMPARE(k->lastUsedMs, int64_t(2000));
    }

    void projectNames_data()
    {
        QTest::addColumn<QString>("first");
        QTest::addColumn<QString>("second");
        QTest::addColumn<bool>("conflict");
        QTest::addColumn<QString>("secondSlug");
        QTest::newRow("distinct") << "Alpha"
                                  << "Beta" << false << "beta";
        QTest::newRow("same, other case") << "Alpha"
                                          << "alpha" << true << "";
        QTest::newRow("name equals a slug") << "My App"
                                            << "my-app" << true << "";
        QTest::newRow("slug collision gets a suffix") << "My App"
                                                      << "My  App!" << false << "my-app-2";
        QTest::newRow("symbols only") << "x"
                                      << "!!!" << false << "project";
    }

    void projectNames()
    {
        QFETCH(QString, first);
        QFETCH(QString, second);
        QFETCH(bool, conflict);
        QFETCH(QString, secondSlug);
        QTemporaryDir dir;
        auto s = Store::open((dir.path() + "/p.db").toStdString());
        QVERIFY(s);
        QVERIFY((*s)->createProject(first.toStdString()));
        auto p = (*s)->createProject(second.toStdString());
        QCOMPARE(!p, conflict);
        if (conflict) {
            QCOMPARE(lizard::http::httpStatus(p.error().kind), 409);
            return;
        }
        QCOMPARE(QString::fromStdString(p->slug), secondSlug);
        QVERIFY(QString::fromStdString(p->id).startsWith("proj_"));
    }

    void sandboxLifecycle()
    {
        auto s = open();
        QVERIFY(s);
        auto project = s->createProject("sandboxes");
        QVERIFY(project);
        SandboxRecord r;
        r.id = "sb_test1";
        r.projectId = project->id;
        r.templateName = "base";
        r.size = "nano";
        r.cpus = 0.5;
        r.memoryMb = 1024;
        r.shmMb = 48;
        r.limitsEnforced = true;
        r.startedAtMs = 1000;
        r.endAtMs = 5000;
        r.metadata = {{"a", "b"}};
        r.envs = {{"K", "V"}};
        r.allowedHosts = {"pypi.org", "10.0.0.0/8"};
        r.handle = {"sb_test1", 4242, 777, "/run/sb_test1.sock", true, false};
        QVERIFY(s->insertSandbox(r));
        QCOMPARE(s->runningCount(), 1);
        QVERIFY(s->setEndAt("sb_test1", 9000));
        // a project with a running sandbox cannot go
        QCOMPARE(lizard::http::httpStatus(s->deleteProject(project->id).error().kind), 409);

        s.reset();
        s = open();
        auto back = s->sandbox("sb_test1");
        QVERIFY(back);
        QCOMPARE(back->endAtMs, int64_t(9000));
        QCOMPARE(back->metadata.at("a"), std::string("b"));
        QCOMPARE(back->envs.at("K"), std::string("V"));
        QCOMPARE(back->allowedHosts, (std::vector<std::string>{"pypi.org", "10.0.0.0/8"}));
        QCOMPARE(back->handle.initPid, pid_t(4242));
        QCOMPARE(back->handle.initStartTime, 777ull);
        QCOMPARE(back->handle.socketPath, std::string("/run/sb_test1.sock"));
        QVERIFY(back->limitsEnforced);
        QCOMPARE(back->shmMb, 48);

        QVERIFY(s->markStopped("sb_test1", "killed"));
        QVERIFY(!s->markStopped("sb_test1", "killed")); // only once
        QCOMPARE(s->runningCount(), 0);
        QVERIFY(!s->setEndAt("sb_test1", 1));
        s.reset();
        s = open();
        QCOMPARE(QString::fromStdString(s->sandbox("sb_test1")->status), QStringLiteral("stopped"));
        QCOMPARE(QString::fromStdString(s->sandbox("sb_test1")->stopReason),
                 QStringLiteral("killed"));
        QVERIFY(s->deleteProject(project->id));
        QVERIFY(!s->sandbox("sb_test1")); // its history goes with it
    }

    void insertIntoDeletedProjectFails()
    {
        auto s = open();
        SandboxRecord r;
        r.id = "sb_orphan";
        r.projectId = "proj_gone";
        QCOMPARE(lizard::http::httpStatus(s->insertSandbox(r).error().kind), 409);
    }
};

QTEST_GUILESS_MAIN(TestStore)
#include "tst_api_store.moc"
