// Lizard ▸ API keys… against a real lizard-local: create a read-only key (its secret shown once,
// Copy puts it on the clipboard), see it listed, revoke it after the confirmation, see it gone;
// the key file's key cannot be revoked; a read-only connection is told why it cannot create.
#include "client/lizardapi.h"
#include "support/localserver.h"
#include "support/screenshot.h"
#include "ui/apikeysdialog.h"
#include "ui/mainwindow.h"
#include "uidriver.h"

#include <QClipboard>
#include <QComboBox>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QTest>
#include <QTreeWidget>

using namespace lizard;

namespace {

QTreeWidgetItem* row(QTreeWidget* list, const QString& name)
{
    for (int i = 0; i < list->topLevelItemCount(); ++i) {
        if (list->topLevelItem(i)->text(0) == name)
            return list->topLevelItem(i);
    }
    return nullptr;
}

} // namespace

class TestApiKeysDialog : public QObject
{
    Q_OBJECT
private:
    lizard::test::LocalServer m_server;
    std::unique_ptr<client::LizardApi> m_api;
    std::unique_ptr<ui::MainWindow> m_window;

    ui::ApiKeysDialog* openFromMenu()
    {
        QAction* action = lizard::test::menuAction(m_window.get(), "Lizard", "API keys");
        if (action == nullptr)
            return nullptr;
        action->trigger();
        return lizard::test::waitForVisible<ui::ApiKeysDialog>();
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), qPrintable(m_server.errorString()));
        m_api = std::make_unique<client::LizardApi>(
            client::Endpoint{m_server.url(), m_server.apiKey()});
        m_window = std::make_unique<ui::MainWindow>();
        m_window->setBackend(m_api.get(), "Local — " + m_server.url(), {});
        m_window->show();
    }

    void createCopyRevoke()
    {
        ui::ApiKeysDialog* dialog = openFromMenu();
        QVERIFY2(dialog, "Lizard ▸ API keys… opens the dialog");
        auto* list = dialog->findChild<QTreeWidget*>("keyList");
        QTRY_COMPARE_WITH_TIMEOUT(list->topLevelItemCount(), 1, 10000); // the key file's key
        QVERIFY(list->topLevelItem(0)->text(0).contains("key file"));

        auto* name = dialog->findChild<QLineEdit*>("keyName");
        auto* create = dialog->findChild<QPushButton*>("createButton");
        QVERIFY(!create->isEnabled()); // no name, no key
        QTest::keyClicks(name, "laptop ci");
        dialog->findChild<QComboBox*>("keyScope")->setCurrentIndex(1); // Read-only
        QVERIFY(create->isEnabled());
        QTest::mouseClick(create, Qt::LeftButton);

        auto* secret = dialog->findChild<QLineEdit*>("newKey");
        QTRY_VERIFY_WITH_TIMEOUT(secret->isVisible() && secret->text().startsWith("liz_"), 10000);
        const QString key = secret->text();
        QVERIFY(dialog->findChild<QLabel*>("secretWarning")
                    ->text()
                    .contains("will not be shown again"));
        QTRY_VERIFY_WITH_TIMEOUT(row(list, "laptop ci") != nullptr, 10000);
        QTreeWidgetItem* item = row(list, "laptop ci");
        QCOMPARE(item->text(1), QString("Read-only"));
        QVERIFY(item->text(3).size() > 0);                 // created
        QCOMPARE(item->text(4), QString("never"));         // last used
        QVERIFY(key.startsWith(item->text(2).chopped(1))); // the preview, not the key
        QVERIFY(item->text(2) != key);

        QTest::mouseClick(dialog->findChild<QPushButton*>("copyButton"), Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), key);
        // The key works, read-only.
        QCOMPARE(m_server.request("GET", "/api/projects", {}, key.toUtf8()).status, 200);
        QCOMPARE(m_server.request("POST", "/api/projects", R"({"name":"x"})", key.toUtf8()).status,
                 403);
        dialog->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(
            row(list, "laptop ci") && row(list, "laptop ci")->text(4) != "never", 10000);
        lizard::test::saveScreenshot(dialog->grab(), "api-keys");

        // Revoke, after the confirmation.
        list->setCurrentItem(row(list, "laptop ci"));
        auto* revoke = dialog->findChild<QPushButton*>("revokeButton");
        QVERIFY(revoke->isEnabled());
        QString question;
        lizard::test::whenModal<QMessageBox>(this, [&question](QMessageBox* box) {
            question = box->text();
            box->button(QMessageBox::Yes)->click();
        });
        QTest::mouseClick(revoke, Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            row(list, "laptop ci") == nullptr && list->topLevelItemCount() == 1, 10000);
        QVERIFY2(question.contains("laptop ci"), qPrintable(question));
        QCOMPARE(m_server.request("GET", "/api/projects", {}, key.toUtf8()).status, 401);
        QVERIFY(dialog->findChild<QLabel*>("error")->isHidden());
        dialog->close();
    }

    void keyFileKeyCannotBeRevoked()
    {
        ui::ApiKeysDialog* dialog = openFromMenu();
        QVERIFY(dialog);
        auto* list = dialog->findChild<QTreeWidget*>("keyList");
        QTRY_VERIFY_WITH_TIMEOUT(list->topLevelItemCount() >= 1, 10000);
        list->setCurrentItem(list->topLevelItem(0));
        QVERIFY(list->topLevelItem(0)->text(0).contains("key file"));
        QVERIFY(!dialog->findChild<QPushButton*>("revokeButton")->isEnabled());
        dialog->close();
    }

    void readOnlyConnectionIsToldWhy()
    {
        const auto made =
            m_server.request("POST", "/api/account/api-keys",
                             R"({"name":"viewer","scopes":[{"type":"access","id":"read-only"}]})");
        QCOMPARE(made.status, 200);
        const QString key = QJsonDocument::fromJson(made.body).object().value("key").toString();
        client::LizardApi readOnly(client::Endpoint{m_server.url(), key});
        ui::ApiKeysDialog dialog(&readOnly, "Local (read-only key)");
        dialog.show();
        auto* list = dialog.findChild<QTreeWidget*>("keyList");
        QTRY_COMPARE_WITH_TIMEOUT(list->topLevelItemCount(), 2, 10000); // it may list
        QTest::keyClicks(dialog.findChild<QLineEdit*>("keyName"), "escalate");
        QTest::mouseClick(dialog.findChild<QPushButton*>("createButton"), Qt::LeftButton);
        auto* error = dialog.findChild<QLabel*>("error");
        QTRY_VERIFY_WITH_TIMEOUT(error->isVisible(), 10000);
        QVERIFY2(error->text().contains("read-only"), qPrintable(error->text()));
        QVERIFY(dialog.findChild<QLineEdit*>("newKey")->text().isEmpty());
        QCOMPARE(dialog.shownKey(), QString());
        lizard::test::saveScreenshot(dialog.grab(), "api-keys-read-only");
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestApiKeysDialog)
#include "tst_apikeysdialog.moc"
