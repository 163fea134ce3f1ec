// KeyStore: keychain when a secret service answers, else the 0600 file; says which.
#include "app/keystore.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using lizard::app::KeyStore;

class TestKeyStore : public QObject
{
    Q_OBJECT
private:
    static void storeAndLoad(KeyStore& store, KeyStore::Backend* where)
    {
        bool stored = false;
        QString storeError;
        store.store("cloud-1", "liz_secret", [&](KeyStore::Backend b, const QString& e) {
            *where = b;
            storeError = e;
            stored = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(stored, 30000);
        QVERIFY2(storeError.isEmpty(), qPrintable(storeError));
        bool loaded = false;
        std::optional<QString> key;
        store.load("cloud-1", [&](std::optional<QString> k, const QString&) {
            key = k;
            loaded = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(loaded, 30000);
        QCOMPARE(key.value_or(""), QString("liz_secret"));
    }

private slots:
    void fileOnly()
    {
        QTemporaryDir dir;
        KeyStore store(dir.filePath("keys.json"), false);
        KeyStore::Backend where = KeyStore::Backend::Unknown;
        storeAndLoad(store, &where);
        QCOMPARE(where, KeyStore::Backend::File);
        QVERIFY(store.describe().contains(dir.filePath("keys.json")));
        QVERIFY(store.describe().contains("readable only by you"));
        store.remove("cloud-1");
        bool loaded = false;
        QString error;
        store.load("cloud-1", [&](std::optional<QString> k, const QString& e) {
            QVERIFY(!k);
            error = e;
            loaded = true;
        });
        QTRY_VERIFY(loaded);
        QVERIFY(!error.isEmpty());
    }

    void keychainOrFallback()
    {
        // On this machine there may be no secret service: either way the key round-trips and
        // describe() names the place it went.
        QTemporaryDir dir;
        KeyStore store(dir.filePath("keys.json"), true);
        KeyStore::Backend where = KeyStore::Backend::Unknown;
        storeAndLoad(store, &where);
        QVERIFY(where != KeyStore::Backend::Unknown);
        QCOMPARE(store.backend(), where);
        if (where == KeyStore::Backend::File) {
            QVERIFY(store.describe().startsWith("No keychain answered"));
            QVERIFY(QFile::exists(dir.filePath("keys.json")));
        } else {
            QVERIFY(store.describe().contains("system keychain"));
            QVERIFY(!QFile::exists(dir.filePath("keys.json"))); // no second copy
            store.remove("cloud-1");
        }
    }
};

QTEST_GUILESS_MAIN(TestKeyStore)
#include "tst_keystore.moc"
