// ConnectionsDialog: adding a cloud connection validates URL and key; Local cannot be removed.
#include "ui/connectionsdialog.h"

#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTest>

using lizard::models::ConnectionProfile;
using lizard::ui::ConnectionsDialog;

class TestConnectionsDialog : public QObject
{
    Q_OBJECT
private slots:
    void addCloud_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("ok");
        QTest::newRow("default url") << "https://lizard.build" << "liz_abc" << true;
        QTest::newRow("trailing slash") << "https://lizard.build/" << "liz_abc" << true;
        QTest::newRow("http local") << "http://127.0.0.1:7411" << "liz_abc" << true;
        QTest::newRow("no key") << "https://lizard.build" << "  " << false;
        QTest::newRow("no scheme") << "lizard.build" << "liz_abc" << false;
        QTest::newRow("ftp") << "ftp://lizard.build" << "liz_abc" << false;
        QTest::newRow("garbage") << "http://" << "liz_abc" << false;
    }
    void addCloud()
    {
        QFETCH(QString, url);
        QFETCH(QString, key);
        QFETCH(bool, ok);
        ConnectionsDialog dialog({ConnectionProfile::local()}, "local", "keys go to a file");
        dialog.nameEdit()->setText("Work");
        dialog.urlEdit()->setText(url);
        dialog.keyEdit()->setText(key);
        QString error;
        QCOMPARE(dialog.addCloudFromForm(&error), ok);
        if (!ok) {
            QVERIFY(!error.isEmpty());
            QCOMPARE(dialog.profiles().size(), 1);
            QVERIFY(dialog.newKeys().isEmpty());
            return;
        }
        QCOMPARE(dialog.profiles().size(), 2);
        const ConnectionProfile added = dialog.profiles().at(1);
        QCOMPARE(added.kind, ConnectionProfile::Kind::Cloud);
        QCOMPARE(added.name, QString("Work"));
        QVERIFY(!added.url.endsWith('/'));
        QCOMPARE(dialog.newKeys().value(added.id), key.trimmed());
        QCOMPARE(dialog.activeId(), added.id); // the new one is selected
        QVERIFY(dialog.keyEdit()->text().isEmpty()); // the secret does not linger in the form
    }

    void localCannotBeRemoved()
    {
        ConnectionProfile cloud{"cloud-1", "Cloud", ConnectionProfile::Kind::Cloud, "https://lizard.build"};
        ConnectionsDialog dialog({ConnectionProfile::local(), cloud}, "local", "");
        QCOMPARE(dialog.list()->count(), 2);
        QCOMPARE(dialog.activeId(), QString("local"));
        dialog.list()->setCurrentRow(1);
        QCOMPARE(dialog.activeId(), QString("cloud-1"));
        const auto buttons = dialog.findChildren<QPushButton*>();
        QPushButton* remove = nullptr;
        for (auto* b : buttons)
            if (b->text() == "Remove")
                remove = b;
        QVERIFY(remove);
        remove->click();
        QCOMPARE(dialog.removedIds(), QStringList{"cloud-1"});
        QCOMPARE(dialog.list()->count(), 1);
        remove->click(); // Local is selected now
        QCOMPARE(dialog.list()->count(), 1);
        QCOMPARE(dialog.profiles().size(), 1);
    }
};

QTEST_MAIN(TestConnectionsDialog)
#include "tst_connectionsdialog.moc"
