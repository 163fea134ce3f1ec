// ProjectListModel against a real lizard-local: list, create, rename, delete, and errors with
// the server's code.
#include "client/lizardapi.h"
#include "models/projectlistmodel.h"
#include "support/localserver.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace lizard;
using models::ProjectListModel;

class TestProjectListModel : public QObject
{
    Q_OBJECT
private:
    lizard::test::LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;

    static QStringList names(const ProjectListModel& model)
    {
        QStringList out;
        for (int row = 0; row < model.rowCount(); ++row)
            out << model.index(row).data().toString();
        return out;
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_api = std::make_unique<client::LizardApi>(
            client::Endpoint{m_server.url(), m_server.apiKey()});
    }

    void crud()
    {
        ProjectListModel model(m_api.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy refreshed(&model, &ProjectListModel::refreshed);
        QSignalSpy failed(&model, &ProjectListModel::operationFailed);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.refresh();
        QVERIFY(refreshed.wait(10000));
        QVERIFY(model.defaultRow() >= 0);
        QCOMPARE(model.index(model.defaultRow()).data(ProjectListModel::SlugRole).toString(),
                 QString("default"));

        QSignalSpy created(&model, &ProjectListModel::projectCreated);
        model.createProject("Model test");
        QVERIFY(created.wait(10000));
        const auto project = created.at(0).at(0).value<client::Project>();
        QVERIFY(names(model).contains("Model test"));
        const int row = model.rowOf(project.id);
        QVERIFY(row >= 0);

        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy renamed(&model, &ProjectListModel::projectRenamed);
        model.renameProject(project.id, "Model test renamed");
        QVERIFY(renamed.wait(10000));
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).value<QModelIndex>().row(), row);
        QCOMPARE(model.index(row).data().toString(), QString("Model test renamed"));

        // A refresh with nothing new changes nothing.
        changed.clear();
        model.refresh();
        QVERIFY(refreshed.wait(10000));
        QCOMPARE(changed.count(), 0);

        QSignalSpy deleted(&model, &ProjectListModel::projectDeleted);
        model.deleteProject(project.id);
        QVERIFY(deleted.wait(10000));
        QCOMPARE(model.rowOf(project.id), -1);
        QCOMPARE(failed.count(), 0);
        QCOMPARE(reset.count(), 0);
    }

    void duplicateNameFailsWithServerCode()
    {
        ProjectListModel model(m_api.get());
        QSignalSpy created(&model, &ProjectListModel::projectCreated);
        QSignalSpy failed(&model, &ProjectListModel::operationFailed);
        model.createProject("Twice");
        QVERIFY(created.wait(10000));
        model.createProject("Twice");
        QVERIFY(failed.wait(10000));
        const auto error = failed.at(0).at(0).value<client::ApiError>();
        QCOMPARE(error.kind, client::ApiError::Kind::Conflict);
        QCOMPARE(error.httpStatus, 409);
        QVERIFY(!error.code.isEmpty());
        const QString text =
            error.toDisplayString(); // what failed, status, code, the server's message
        QVERIFY2(text.contains("Create project") && text.contains("409") &&
                     text.contains(error.code) && text.contains("Twice"),
                 qPrintable(text));
        QCOMPARE(model.rowCount(), 1); // the failed create added nothing
    }

    void externalChangesArriveOnRefresh()
    {
        ProjectListModel model(m_api.get());
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy refreshed(&model, &ProjectListModel::refreshed);
        model.refresh();
        QVERIFY(refreshed.wait(10000));
        const int before = model.rowCount();
        const auto answer =
            m_server.request("POST", "/api/projects", R"({"name":"From elsewhere"})");
        QCOMPARE(answer.status / 100, 2);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        model.refresh();
        QVERIFY(refreshed.wait(10000));
        QCOMPARE(model.rowCount(), before + 1);
        QCOMPARE(inserted.count(), 1);
        QVERIFY(names(model).contains("From elsewhere"));
    }
};

QTEST_GUILESS_MAIN(TestProjectListModel)
#include "tst_projectlistmodel.moc"
