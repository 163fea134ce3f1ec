// SandboxTableModel against a real lizard-local: sandboxes created through the API appear,
// time left ticks, extend and kill show up, a bad key is reported once.
#include "client/lizardapi.h"
#include "models/sandboxactions.h"
#include "models/sandboxrow.h"
#include "models/sandboxtablemodel.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/sandboxpolicy.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace lizard;
using client::LizardApi;
using models::SandboxTableModel;
namespace SandboxColumn = models::SandboxColumn;

class TestSandboxTableModelLive : public QObject
{
    Q_OBJECT
private:
    lizard::test::LocalServer m_server;
    std::unique_ptr<LizardApi> m_api;
    QString m_projectId;
    QString m_sandboxId;

    QString cell(SandboxTableModel& model, int column)
    {
        return model.index(model.rowOf(m_sandboxId), column).data().toString();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_api = std::make_unique<LizardApi>(client::Endpoint{m_server.url(), m_server.apiKey()});
        const auto projects = lizard::test::waitFor<QList<client::Project>>(
            [this](QObject* ctx, auto done) { return m_api->listProjects(ctx, done); });
        QVERIFY(projects && projects->ok());
        for (const auto& p : projects->value())
            if (p.slug == "default")
                m_projectId = p.id;
        QVERIFY(!m_projectId.isEmpty());
    }

    void createdSandboxAppears()
    {
        SandboxTableModel model(m_api.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPollInterval(200);
        model.setProjectId(m_projectId);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        client::CreateSandboxRequest req;
        req.projectId = m_projectId;
        req.timeoutMs = 120000;
        req.metadata = {{"purpose", "model-test"}};
        QString why;
        m_sandboxId = lizard::test::startSandbox(*m_api, req, &why);
        LIZ_REQUIRE_SANDBOX(m_sandboxId, why);
        QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(m_sandboxId) >= 0, 10000);
        QCOMPARE(cell(model, SandboxColumn::Id), m_sandboxId);
        QCOMPARE(cell(model, SandboxColumn::Template), QString("base"));
        QCOMPARE(cell(model, SandboxColumn::Status), QString("running"));
        QCOMPARE(cell(model, SandboxColumn::Metadata), QString("purpose=model-test"));
        QVERIFY(cell(model, SandboxColumn::Size).startsWith("medium"));
        const QString left = cell(model, SandboxColumn::TimeLeft);
        QVERIFY2(left.startsWith("1:5") || left == "2:00", qPrintable(left));
        QCOMPARE(reset.count(), 0);
    }

    void timeLeftTicks()
    {
        QVERIFY(!m_sandboxId.isEmpty());
        SandboxTableModel model(m_api.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setPollInterval(0); // no refetching: only the tick changes the text
        model.setProjectId(m_projectId);
        QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(m_sandboxId) >= 0, 10000);
        const QString before = cell(model, SandboxColumn::TimeLeft);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        // The tick: the status badge (ending soon), "started … ago" and the time left. The
        // metrics' own refresh may change the CPU and Memory bars meanwhile; nothing else changes.
        const auto ticks = [&changed] {
            int n = 0;
            for (const auto& args : changed)
                n += args.at(0).value<QModelIndex>().column() == int(SandboxColumn::Status);
            return n;
        };
        QTRY_VERIFY_WITH_TIMEOUT(ticks() >= 1, 2500);
        QVERIFY(cell(model, SandboxColumn::TimeLeft) != before || ticks() >= 1);
        for (const auto& args : changed) {
            const int first = args.at(0).value<QModelIndex>().column();
            const int last = args.at(1).value<QModelIndex>().column();
            if (first == int(SandboxColumn::Status)) {
                QCOMPARE(last, int(SandboxColumn::TimeLeft));
            } else {
                QVERIFY2(first >= int(SandboxColumn::Cpu) && last <= int(SandboxColumn::Memory),
                         qPrintable(QStringLiteral("columns %1..%2").arg(first).arg(last)));
            }
        }
    }

    void extendShowsNewDeadline()
    {
        QVERIFY(!m_sandboxId.isEmpty());
        SandboxTableModel model(m_api.get());
        models::SandboxActions actions(m_api.get(), &model);
        model.setPollInterval(200);
        model.setProjectId(m_projectId);
        QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(m_sandboxId) >= 0, 10000);
        const auto extended = lizard::test::waitFor<client::Unit>([&](QObject* ctx, auto done) {
            actions.extend(m_sandboxId, 10, ctx, done);
            return nullptr;
        });
        QVERIFY(extended && extended->ok());
        QTRY_VERIFY_WITH_TIMEOUT(cell(model, SandboxColumn::TimeLeft).startsWith("9:5") ||
                                     cell(model, SandboxColumn::TimeLeft) == "10:00",
                                 5000);
    }

    void killedSandboxDisappears()
    {
        QVERIFY(!m_sandboxId.isEmpty());
        SandboxTableModel model(m_api.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        models::SandboxActions actions(m_api.get(), &model);
        model.setPollInterval(200);
        model.setProjectId(m_projectId);
        QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(m_sandboxId) >= 0, 10000);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        const auto killed = lizard::test::waitFor<client::Unit>([&](QObject* ctx, auto done) {
            actions.kill(m_sandboxId, ctx, done);
            return nullptr;
        });
        QVERIFY(killed && killed->ok());
        QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(m_sandboxId) < 0, 5000);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(reset.count(), 0);
        // Killing it again reports the server's 404 with what was tried.
        const auto again = lizard::test::waitFor<client::Unit>([&](QObject* ctx, auto done) {
            actions.kill(m_sandboxId, ctx, done);
            return nullptr;
        });
        QVERIFY(again && !again->ok());
        QCOMPARE(again->error().kind, client::ApiError::Kind::NotFound);
        QVERIFY(again->error().toDisplayString().contains(m_sandboxId));
    }

    void badKeyIsReportedOncePerStreak()
    {
        LizardApi bad({m_server.url(), "liz_wrong"});
        SandboxTableModel model(&bad);
        QSignalSpy failed(&model, &SandboxTableModel::refreshFailed);
        model.setPollInterval(100);
        model.setProjectId(m_projectId);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        QTest::qWait(500); // several more polls fail
        QCOMPARE(failed.count(), 1);
        const auto error = failed.at(0).at(0).value<client::ApiError>();
        QCOMPARE(error.kind, client::ApiError::Kind::Authentication);
        QCOMPARE(error.httpStatus, 401);
    }
};

QTEST_GUILESS_MAIN(TestSandboxTableModelLive)
#include "tst_sandboxtablemodel_live.moc"
