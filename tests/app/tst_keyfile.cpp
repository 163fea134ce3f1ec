// KeyFile: API keys in a 0600 file, atomic writes, clear errors for a damaged file.
#include "app/keyfile.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <sys/stat.h>

using lizard::app::KeyFile;

class TestKeyFile : public QObject
{
    Q_OBJECT
private slots:
    void roundTripAndPermissions()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("sub/api-keys.json");
        KeyFile file(path);
        QVERIFY(!file.read("cloud-1"));
        QString error;
        QVERIFY2(file.write("cloud-1", "liz_one", &error), qPrintable(error));
        QVERIFY2(file.write("cloud-2", "liz_two", &error), qPrintable(error));
        QCOMPARE(file.read("cloud-1").value_or(""), QString("liz_one"));
        QCOMPARE(file.read("cloud-2").value_or(""), QString("liz_two"));
        struct stat st
        {
        };
        QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0600);
        QCOMPARE(::stat(QFile::encodeName(dir.filePath("sub")).constData(), &st), 0);
        QCOMPARE(int(st.st_mode & 0777), 0700);
        QVERIFY(file.remove("cloud-1", &error));
        QVERIFY(!file.read("cloud-1"));
        QCOMPARE(file.read("cloud-2").value_or(""), QString("liz_two"));
        QVERIFY(file.remove("never-there", &error));
    }

    void damagedFileIsReportedNotOverwritten()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("api-keys.json");
        QFile raw(path);
        QVERIFY(raw.open(QIODevice::WriteOnly));
        raw.write("{not json");
        raw.close();
        KeyFile file(path);
        QString error;
        QVERIFY(!file.read("x", &error));
        QVERIFY2(error.contains("damaged"), qPrintable(error));
        QVERIFY(!file.write("x", "liz_x", &error));
        QVERIFY(raw.open(QIODevice::ReadOnly));
        QCOMPARE(raw.readAll(), QByteArray("{not json")); // nothing lost
    }
};

QTEST_GUILESS_MAIN(TestKeyFile)
#include "tst_keyfile.moc"
