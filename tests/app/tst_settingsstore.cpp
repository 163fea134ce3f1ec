// SettingsStore: profiles (with their CA files) and the active one survive a restart; Local is
// always there.
#include "app/settingsstore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using lizard::app::SettingsStore;
using lizard::models::ConnectionProfile;

class TestSettingsStore : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath("settings.ini");
        {
            SettingsStore store(ini);
            QCOMPARE(store.profiles().size(), 1);
            QCOMPARE(store.activeProfile().kind, ConnectionProfile::Kind::Local);
            // A company's certificate authority belongs to its connection.
            ConnectionProfile cloud{"cloud-1",
                                    "Work",
                                    ConnectionProfile::Kind::Cloud,
                                    "https://lizard.build",
                                    false,
                                    "/etc/company/ca.pem"};
            // The user's yes to an unencrypted key is remembered, per connection.
            ConnectionProfile lab{"cloud-2", "Lab", ConnectionProfile::Kind::Cloud,
                                  "http://lab.test", true};
            store.setProfiles({ConnectionProfile::local(), cloud, lab});
            store.setActiveId("cloud-1");
            store.sync();
        }
        SettingsStore again(ini);
        const auto profiles = again.profiles();
        QCOMPARE(profiles.size(), 3);
        QCOMPARE(profiles.at(0).id, QString("local"));
        QCOMPARE(profiles.at(1).name, QString("Work"));
        QCOMPARE(profiles.at(1).url, QString("https://lizard.build"));
        QVERIFY(!profiles.at(1).keyInClearConfirmed);
        QVERIFY(profiles.at(2).keyInClearConfirmed);
        QCOMPARE(profiles.at(1).caFile, QString("/etc/company/ca.pem"));
        QVERIFY(profiles.at(2).caFile.isEmpty());
        QCOMPARE(again.activeProfile().id, QString("cloud-1"));
    }

    // An SSH host keeps its destination, port and identity file, and never a URL or a key.
    void sshHostRoundTrip()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath("settings.ini");
        {
            SettingsStore store(ini);
            ConnectionProfile big;
            big.id = "ssh-1";
            big.name = "Workstation";
            big.kind = ConnectionProfile::Kind::Ssh;
            big.sshDestination = "ana@big.lab";
            big.sshPort = 2222;
            big.sshIdentity = "/home/ana/.ssh/id_lab";
            ConnectionProfile plain;
            plain.id = "ssh-2";
            plain.name = "Server";
            plain.kind = ConnectionProfile::Kind::Ssh;
            plain.sshDestination = "server"; // a Host of ~/.ssh/config
            store.setProfiles({ConnectionProfile::local(), big, plain});
            store.setActiveId("ssh-1");
            store.sync();
            QFile file(ini);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(!file.readAll().contains("url="));
        }
        SettingsStore again(ini);
        const auto profiles = again.profiles();
        QCOMPARE(profiles.size(), 3);
        QCOMPARE(profiles.at(1).kind, ConnectionProfile::Kind::Ssh);
        QCOMPARE(profiles.at(1).sshDestination, QString("ana@big.lab"));
        QCOMPARE(profiles.at(1).sshPort, 2222);
        QCOMPARE(profiles.at(1).sshIdentity, QString("/home/ana/.ssh/id_lab"));
        QCOMPARE(profiles.at(2).sshDestination, QString("server"));
        QCOMPARE(profiles.at(2).sshPort, 0);
        QVERIFY(profiles.at(2).sshIdentity.isEmpty());
        QCOMPARE(again.activeProfile().kind, ConnectionProfile::Kind::Ssh);
    }

    void unknownActiveFallsBackToLocal()
    {
        QTemporaryDir dir;
        SettingsStore store(dir.filePath("s.ini"));
        store.setActiveId("cloud-9");
        QCOMPARE(store.activeProfile().id, QString("local"));
    }

    // Lizard ▸ Preferences…: the New notebook lifetime, an hour unless set, kept across starts.
    void notebookLifetimeDefaultsAndSurvives()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath("s.ini");
        {
            SettingsStore store(ini);
            QCOMPARE(store.notebookLifetimeMinutes(), 60);
            store.setNotebookLifetimeMinutes(25);
            store.sync();
        }
        QCOMPARE(SettingsStore(ini).notebookLifetimeMinutes(), 25);
    }

    // Keep a notebook's sandbox alive while you work: on for local sandboxes, off for cloud ones.
    void autoExtendDefaultsAndSurvives()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath("s.ini");
        {
            SettingsStore store(ini);
            QVERIFY(store.autoExtendLocal());
            QVERIFY(!store.autoExtendCloud());
            store.setAutoExtend(false, true);
            store.sync();
        }
        QVERIFY(!SettingsStore(ini).autoExtendLocal());
        QVERIFY(SettingsStore(ini).autoExtendCloud());
    }

    // Preferences ▸ Appearance: the desktop's scheme unless chosen, kept across starts.
    void colorSchemeDefaultsAndSurvives()
    {
        QTemporaryDir dir;
        const QString ini = dir.filePath("s.ini");
        {
            SettingsStore store(ini);
            QCOMPARE(store.colorScheme(), QStringLiteral("system"));
            store.setColorScheme(QStringLiteral("dark"));
            store.sync();
        }
        QCOMPARE(SettingsStore(ini).colorScheme(), QStringLiteral("dark"));
    }

    void notebookLifetimeOutOfRangeIsClamped_data()
    {
        QTest::addColumn<QString>("stored");
        QTest::addColumn<int>("minutes");
        QTest::newRow("zero") << "0" << 1;
        QTest::newRow("negative") << "-5" << 1;
        QTest::newRow("beyond the API's limit") << "99999999" << 35791;
        QTest::newRow("not a number") << "soon" << 60;
    }

    void notebookLifetimeOutOfRangeIsClamped()
    {
        QFETCH(QString, stored);
        QFETCH(int, minutes);
        QTemporaryDir dir;
        const QString ini = dir.filePath("s.ini");
        {
            QSettings raw(ini, QSettings::IniFormat); // what a hand-edited file may hold
            raw.setValue("notebook/lifetimeMinutes", stored);
        }
        QCOMPARE(SettingsStore(ini).notebookLifetimeMinutes(), minutes);
    }
};

QTEST_GUILESS_MAIN(TestSettingsStore)
#include "tst_settingsstore.moc"
