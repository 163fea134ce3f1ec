// SettingsStore: profiles and the active one survive a restart; Local is always there.
#include "app/settingsstore.h"

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
            ConnectionProfile cloud{"cloud-1", "Work", ConnectionProfile::Kind::Cloud, "https://lizard.build"};
            store.setProfiles({ConnectionProfile::local(), cloud});
            store.setActiveId("cloud-1");
            store.sync();
        }
        SettingsStore again(ini);
        const auto profiles = again.profiles();
        QCOMPARE(profiles.size(), 2);
        QCOMPARE(profiles.at(0).id, QString("local"));
        QCOMPARE(profiles.at(1).name, QString("Work"));
        QCOMPARE(profiles.at(1).url, QString("https://lizard.build"));
        QCOMPARE(again.activeProfile().id, QString("cloud-1"));
    }

    void unknownActiveFallsBackToLocal()
    {
        QTemporaryDir dir;
        SettingsStore store(dir.filePath("s.ini"));
        store.setActiveId("cloud-9");
        QCOMPARE(store.activeProfile().id, QString("local"));
    }
};

QTEST_GUILESS_MAIN(TestSettingsStore)
#include "tst_settingsstore.moc"
