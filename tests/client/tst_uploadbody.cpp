// UploadBody: the streamed JSON body of a file upload is exactly the JSON the API expects,
// whatever the file's size (base64 pieces join without padding inside) and however curl asks.
#include "client/jsonmapping.h"
#include "client/uploadbody.h"

#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using lizard::client::UploadBody;

class TestUploadBody : public QObject
{
    Q_OBJECT
private slots:
    void matchesJson_data();
    void matchesJson();
    void missingFile();
    void fileChangedWhileRead();
};

void TestUploadBody::matchesJson_data()
{
    QTest::addColumn<int>("fileSize");
    QTest::addColumn<int>("readSize");
    // Reads of a few bytes over the large file would take long and add nothing the small ones
    // do not cover, so that combination is left out.
    for (int size : {0, 1, 2, 3, 4, 49151, 49152, 49153, 300001})
        for (int read : {1, 7, 16384, 1 << 20})
            if (size <= 100000 || read >= 16)
                QTest::addRow("%d bytes, reads of %d", size, read) << size << read;
}

void TestUploadBody::matchesJson()
{
    QFETCH(int, fileSize);
    QFETCH(int, readSize);
    QTemporaryDir dir;
    QByteArray content(fileSize, Qt::Uninitialized);
    for (auto& c : content)
        c = char(QRandomGenerator::global()->bounded(256));
    const QString local = dir.filePath(QStringLiteral("f.bin"));
    QFile f(local);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(content);
    f.close();

    const QString remote = QStringLiteral("/home/user/a \"quoted\" näme\\.bin");
    UploadBody body;
    QVERIFY2(body.open(local, remote), qPrintable(body.errorString()));
    QByteArray out;
    QByteArray buf(readSize, '\0');
    for (;;) {
        const qint64 n = body.read(buf.data(), readSize);
        QVERIFY(n >= 0);
        if (n == 0)
            break;
        out.append(buf.constData(), n);
    }
    QCOMPARE(out.size(), body.size());
    QCOMPARE(body.fileBytesRead(), qint64(fileSize));
    const auto json = nlohmann::json::parse(out.toStdString());
    const auto expected =
        nlohmann::json::parse(lizard::client::writeFileBody(remote, content).toStdString());
    QCOMPARE(QString::fromStdString(json["path"].get<std::string>()), remote);
    QCOMPARE(QString::fromStdString(expected["path"].get<std::string>()), remote);
    QCOMPARE(QString::fromStdString(json["encoding"].get<std::string>()), QString("base64"));
    QCOMPARE(QByteArray::fromBase64(QByteArray::fromStdString(json["content"].get<std::string>())),
             content);
}

void TestUploadBody::missingFile()
{
    UploadBody body;
    QVERIFY(!body.open(QStringLiteral("/nonexistent/file"), QStringLiteral("/x")));
    QVERIFY(body.errorString().contains(QStringLiteral("/nonexistent/file")));
}

void TestUploadBody::fileChangedWhileRead()
{
    QTemporaryDir dir;
    const QString local = dir.filePath(QStringLiteral("f.bin"));
    QFile f(local);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(100000, 'a'));
    f.close();
    UploadBody body;
    QVERIFY(body.open(local, QStringLiteral("/x")));
    QVERIFY(f.resize(10)); // shrinks before the content is read
    QByteArray buf(1 << 20, '\0');
    qint64 n = 0;
    while ((n = body.read(buf.data(), buf.size())) > 0) {
    }
    QCOMPARE(n, qint64(-1));
    QVERIFY2(body.errorString().contains(QStringLiteral("shorter")),
             qPrintable(body.errorString()));
}

QTEST_GUILESS_MAIN(TestUploadBody)
#include "tst_uploadbody.moc"
