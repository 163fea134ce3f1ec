// PortListModel and ExposureList against a real lizard-local: a port opened by
// `python3 -m http.server` in the sandbox is found with its process, exposures are merged in
// and removed again, under QAbstractItemModelTester.
#include "client/lizardapi.h"
#include "models/exposurelist.h"
#include "models/portlistmodel.h"
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/sandboxpolicy.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace lizard;
using models::ExposureList;
using models::PortListModel;

class TestPortListModel : public QObject
{
    Q_OBJECT
private:
    lizard::test::LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;
    QString m_sandboxId;
    client::ExecStream* m_httpServer = nullptr;

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_api = std::make_unique<client::LizardApi>(
            client::Endpoint{m_server.url(), m_server.apiKey()});
        const auto projects = lizard::test::waitFor<QList<client::Project>>(
            [this](QObject* ctx, auto done) { return m_api->listProjects(ctx, done); });
        QVERIFY(projects && projects->ok() && !projects->value().isEmpty());
        QString why;
        m_sandboxId =
            lizard::test::startSandbox(*m_api, projects->value().first().id, 600000, &why);
        LIZ_REQUIRE_SANDBOX(m_sandboxId, why);
    }

    void cleanupTestCase()
    {
        delete m_httpServer;
        if (!m_sandboxId.isEmpty())
            lizard::test::killSandbox(*m_api, m_sandboxId);
    }

    void cleanup()
    {
        if (QTest::currentTestFailed())
            qWarning().noquote() << "lizard-local log (end):\n"
                                 << QString::fromUtf8(m_server.log().right(3000));
    }

    void findsAListeningPortWithItsProcess()
    {
        PortListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        ExposureList exposures(m_api.get());
        QSignalSpy refreshed(&model, &PortListModel::refreshed);
        model.setBackend(m_api.get(), &exposures);
        QCOMPARE(model.rowCount(), 0); // no sandbox yet: nothing to scan
        QVERIFY(!model.isScanning());
        model.setSandboxId(m_sandboxId);
        QVERIFY(model.isScanning());
        QTRY_COMPARE_WITH_TIMEOUT(refreshed.count(), 1, 30000);
        QVERIFY(model.hasScanned());
        QCOMPARE(model.rowOf(8123), -1);

        client::ExecOptions opts;
        opts.timeoutMs = 600000; // the longest a command may run
        m_httpServer = m_api->execStream(m_sandboxId, "exec python3 -m http.server 8123", opts);
        model.setPollInterval(300);
        model.setPolling(true);
        QTRY_VERIFY_WITH_TIMEOUT(model.rowOf(8123) >= 0, 30000);
        const int row = model.rowOf(8123);
        const PortListModel::Row* r = model.rowAt(row);
        QVERIFY(r && r->listening);
        QVERIFY(!r->exposure);
        QCOMPARE(model.index(row, PortListModel::PortColumn).data().toInt(), 8123);
        QCOMPARE(model.index(row, PortListModel::StateColumn).data().toString(),
                 QString("listening"));
        QVERIFY2(r->listening->process == "python3", qPrintable(r->listening->process));
        QVERIFY(r->listening->pid > 0);
        QVERIFY(model.index(row, PortListModel::ProcessColumn)
                    .data()
                    .toString()
                    .startsWith("python3 ("));
        const QString address = model.index(row, PortListModel::AddressColumn).data().toString();
        QVERIFY2(address.contains("::") || address.contains("0.0.0.0"), qPrintable(address));
        QVERIFY(model.index(row, PortListModel::UrlColumn).data().toString().isEmpty());
        QCOMPARE(model.index(row, 0).data(PortListModel::ListeningRole).toBool(), true);

        // Polling keeps the row in place (no reset), so a view's selection survives.
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        const int before = refreshed.count();
        QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() >= before + 3, 15000);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(removed.count(), 0);
        model.setPolling(false);
        QVERIFY(!model.isPolling());

        // Another sandbox (none): rows go.
        model.setSandboxId({});
        QCOMPARE(model.rowCount(), 0);
    }

    void exposuresAreMerged()
    {
        QVERIFY(m_httpServer);
        PortListModel model;
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        ExposureList exposures(m_api.get());
        QSignalSpy refreshed(&model, &PortListModel::refreshed);
        model.setBackend(m_api.get(), &exposures);
        model.setSandboxId(m_sandboxId);
        QTRY_COMPARE_WITH_TIMEOUT(refreshed.count(), 1, 30000);
        QVERIFY(model.rowOf(8123) >= 0);

        std::optional<client::Outcome<client::ExposedPort>> exposed;
        exposures.expose(m_sandboxId, 8123,
                         [&](client::Outcome<client::ExposedPort> o) { exposed.emplace(o); });
        QTRY_VERIFY_WITH_TIMEOUT(exposed.has_value(), 30000);
        QVERIFY2(exposed->ok(),
                 qPrintable(exposed->ok() ? QString() : lizard::test::describe(exposed->error())));
        const client::ExposedPort e = exposed->value();
        QCOMPARE(e.port, 8123);
        QVERIFY(e.url.contains("lizard_token="));
        QVERIFY(!e.accessToken.isEmpty());

        int row = model.rowOf(8123);
        QVERIFY(model.rowAt(row)->exposure);
        const QString shown = model.index(row, PortListModel::UrlColumn).data().toString();
        QVERIFY2(shown.startsWith("http://") && shown.contains(e.hostname), qPrintable(shown));
        QVERIFY2(!shown.contains(e.accessToken), "the table never shows the token");
        QCOMPARE(model.index(row, 0).data(PortListModel::ExposedRole).toBool(), true);

        // A port nobody listens on can be exposed too: a "not listening" row.
        bool exposed2 = false;
        exposures.expose(m_sandboxId, 8124,
                         [&](client::Outcome<client::ExposedPort> o) { exposed2 = o.ok(); });
        QTRY_VERIFY_WITH_TIMEOUT(exposed2, 30000);
        row = model.rowOf(8124);
        QVERIFY(row > model.rowOf(8123));
        QCOMPARE(model.index(row, PortListModel::StateColumn).data().toString(),
                 QString("not listening"));

        std::optional<bool> unexposed;
        exposures.unexpose(m_sandboxId, 8124, [&](bool ok) { unexposed = ok; });
        QTRY_VERIFY_WITH_TIMEOUT(unexposed.has_value(), 30000);
        QVERIFY(*unexposed);
        QCOMPARE(model.rowOf(8124), -1);
        unexposed.reset();
        exposures.unexpose(m_sandboxId, 8123, [&](bool ok) { unexposed = ok; });
        QTRY_VERIFY_WITH_TIMEOUT(unexposed.has_value(), 30000);
        QVERIFY(*unexposed);
        QVERIFY(!model.rowAt(model.rowOf(8123))->exposure);
        QVERIFY(!exposures.exposure(m_sandboxId, 8123));
    }

    void badPortIsRefusedBeforeTheNetwork()
    {
        ExposureList exposures(m_api.get());
        QSignalSpy failed(&exposures, &ExposureList::failed);
        std::optional<client::Outcome<client::ExposedPort>> result;
        exposures.expose(m_sandboxId, 70000,
                         [&](client::Outcome<client::ExposedPort> o) { result.emplace(o); });
        QTRY_VERIFY(result.has_value());
        QVERIFY(!result->ok());
        QCOMPARE(result->error().kind, client::ApiError::Kind::InvalidRequest);
        QCOMPARE(failed.count(), 1);
    }

    void unknownSandboxReportsTheError()
    {
        PortListModel model;
        ExposureList exposures(m_api.get());
        QSignalSpy failed(&model, &PortListModel::refreshFailed);
        model.setBackend(m_api.get(), &exposures);
        model.setSandboxId("sb_does_not_exist");
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        QCOMPARE(failed.at(0).at(0).value<client::ApiError>().kind,
                 client::ApiError::Kind::NotFound);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestPortListModel)
#include "tst_portlistmodel.moc"
