// Which files are serve-mode runner requests, and what is noted of a run: the table the files
// route fills and the serve exec's activity takes from (server/sandboxes/runnerrequests.h).
#include "sandboxes/runnerrequests.h"

#include <QTest>

using lizard::sandboxes::RunnerRequests;

class TestRunnerRequests : public QObject
{
    Q_OBJECT

private slots:
    void requestPaths_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("request");
        QTest::newRow("inbox") << "/tmp/.lizard-code/.requests/req-r1.json" << true;
        QTest::newRow("named inbox") << "/tmp/.lizard-code/.requests/app-1f/req-r1.json" << true;
        QTest::newRow("deeper") << "/tmp/.lizard-code/.requests/a/b/req-r1.json" << false;
        QTest::newRow("not req-") << "/tmp/.lizard-code/.requests/app/r1.json" << false;
        QTest::newRow("not .json") << "/tmp/.lizard-code/.requests/app/req-r1.txt" << false;
        QTest::newRow("empty name") << "/tmp/.lizard-code/.requests/app/req-.json" << false;
        QTest::newRow("elsewhere") << "/tmp/.lizard-code/other/req-r1.json" << false;
        QTest::newRow("prefix only") << "/tmp/.lizard-code/.requestsX/req-r1.json" << false;
    }

    void requestPaths()
    {
        QFETCH(QString, path);
        QFETCH(bool, request);
        QCOMPARE(RunnerRequests::isRequestPath(path.toStdString()), request);
    }

    void notesRunsOnlyWithoutEnvValues()
    {
        RunnerRequests table;
        const std::string inbox = "/tmp/.lizard-code/.requests/app";
        QVERIFY(!table.note("sb", inbox + "/req-a.json", R"({"action":"list"})"));
        QVERIFY(!table.note("sb", inbox + "/req-b.json", "not json"));
        QVERIFY(
            table.note("sb", inbox + "/req-c.json",
                       R"({"action":"run","context":"ctx1","code":"x=1","envs":{"K":"secret"}})"));
        // The req field names the run; without it, the file's name does.
        QVERIFY(table.note("sb", inbox + "/req-d.json",
                           R"({"req":"other","action":"run","code":"y"})"));
        QVERIFY(!table.take("sb", inbox, "a"));
        QVERIFY(!table.take("sb", "/tmp/.lizard-code/.requests/elsewhere", "c"));
        const auto c = table.take("sb", inbox, "c");
        QVERIFY(c);
        QCOMPARE(c->value("context", std::string()), std::string("ctx1"));
        QCOMPARE(c->value("code", std::string()), std::string("x=1"));
        QCOMPARE((*c)["envNames"].dump(), std::string(R"(["K"])"));
        QVERIFY(c->dump().find("secret") == std::string::npos);
        QVERIFY(!table.take("sb", inbox, "c")); // taken once
        QVERIFY(table.take("sb", inbox, "other"));
    }

    void boundedAndForgotten()
    {
        RunnerRequests table;
        const std::string inbox = "/tmp/.lizard-code/.requests";
        for (size_t i = 0; i < RunnerRequests::kMaxPendingPerSandbox + 5; ++i)
            QVERIFY(table.note("sb", inbox + "/req-n" + std::to_string(i) + ".json",
                               R"({"action":"run","code":"1"})"));
        QVERIFY(!table.take("sb", inbox, "n0")); // the oldest went
        QVERIFY(table.take("sb", inbox, "n5"));
        table.forget("sb", inbox + "/req-n6.json");
        QVERIFY(!table.take("sb", inbox, "n6"));
        table.drop("sb");
        QVERIFY(!table.take("sb", inbox, "n7"));
        const std::string big(RunnerRequests::kMaxRequestBytes + 1, ' ');
        QVERIFY(!table.note("sb", inbox + "/req-big.json", big));
    }
};

QTEST_GUILESS_MAIN(TestRunnerRequests)
#include "tst_runnerrequests.moc"
