// Which requests use a sandbox (api/wakegate.h): they wake a sandbox a lifecycle policy paused
// and restart its idle time; the calls that only watch, which the app polls, do neither.
#include "api/wakegate.h"

#include <QTest>

using lizard::api::sandboxUse;
using verb = lizard::http::bhttp::verb;

Q_DECLARE_METATYPE(verb)

class TestApiWakeGate : public QObject
{
    Q_OBJECT

private slots:
    void uses_data()
    {
        QTest::addColumn<verb>("method");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("what"); // empty: not a use
        QTest::addColumn<bool>("holds");
        const QString sb = "/api/sandboxes/sb_abc";
        QTest::newRow("exec") << verb::post << sb + "/exec"
                              << "exec" << true;
        QTest::newRow("processes") << verb::get << sb + "/processes"
                                   << "processes" << true;
        QTest::newRow("signal") << verb::post << sb + "/processes/signal"
                                << "processes" << true;
        QTest::newRow("tree signal") << verb::post << sb + "/processes/tree/signal"
                                     << "processes" << true;
        QTest::newRow("read") << verb::get << sb + "/files"
                              << "files" << true;
        QTest::newRow("write") << verb::post << sb + "/files"
                               << "files" << true;
        QTest::newRow("remove") << verb::delete_ << sb + "/files"
                                << "files" << true;
        QTest::newRow("list") << verb::get << sb + "/files/list"
                              << "files" << true;
        QTest::newRow("stat") << verb::get << sb + "/files/stat"
                              << "files" << true;
        QTest::newRow("move") << verb::post << sb + "/files/move"
                              << "files" << true;
        QTest::newRow("new terminal") << verb::post << sb + "/terminals"
                                      << "terminals" << true;
        QTest::newRow("attach") << verb::get << sb + "/terminals/t_1/attach"
                                << "terminals" << false;
        QTest::newRow("terminal signal") << verb::post << sb + "/terminals/t_1/signal"
                                         << "terminals" << true;
        QTest::newRow("desktop start") << verb::post << sb + "/desktop"
                                       << "desktop" << true;
        QTest::newRow("desktop stop") << verb::delete_ << sb + "/desktop"
                                      << "desktop" << true;
        // Watching: polled by the app while a tab is shown.
        QTest::newRow("tree") << verb::get << sb + "/processes/tree"
                              << "" << false;
        QTest::newRow("watch") << verb::post << sb + "/files/watch"
                               << "" << false;
        QTest::newRow("watch events") << verb::get << sb + "/files/watch/events"
                                      << "" << false;
        QTest::newRow("desktop state") << verb::get << sb + "/desktop"
                                       << "" << false;
        QTest::newRow("terminals") << verb::get << sb + "/terminals"
                                   << "" << false;
        QTest::newRow("info") << verb::get << sb << "" << false;
        QTest::newRow("logs") << verb::get << sb + "/logs"
                              << "" << false;
        QTest::newRow("activity") << verb::get << sb + "/activity"
                                  << "" << false;
        QTest::newRow("resume") << verb::post << sb + "/resume"
                                << "" << false;
        QTest::newRow("lifecycle") << verb::patch << sb + "/lifecycle"
                                   << "" << false;
        QTest::newRow("timeout") << verb::post << sb + "/timeout"
                                 << "" << false;
        QTest::newRow("exec, GET") << verb::get << sb + "/exec"
                                   << "" << false;
        QTest::newRow("exec/more") << verb::post << sb + "/exec/more"
                                   << "" << false;
        QTest::newRow("other resource") << verb::post << "/api/projects/p/exec"
                                        << "" << false;
    }
    void uses()
    {
        QFETCH(verb, method);
        QFETCH(QString, path);
        QFETCH(QString, what);
        QFETCH(bool, holds);
        const auto use = sandboxUse(method, path.toStdString());
        QCOMPARE(use.has_value(), !what.isEmpty());
        if (!use)
            return;
        QCOMPARE(QString::fromStdString(use->sandboxId), QStringLiteral("sb_abc"));
        QCOMPARE(QString::fromStdString(use->what), what);
        QCOMPARE(use->holds, holds);
    }
};

QTEST_GUILESS_MAIN(TestApiWakeGate)
#include "tst_api_wakegate.moc"
