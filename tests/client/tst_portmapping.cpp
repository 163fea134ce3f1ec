// The expose answer (client/portmapping.h): the SDK's ExposedPort shape, tolerant of unknown
// fields, strict about what a preview needs.
#include "client/jsonmapping.h"

#include <QTest>

using namespace lizard::client;

class TestPortMapping : public QObject
{
    Q_OBJECT
private slots:
    void parse_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("hostname");
        QTest::addColumn<int>("port");
        QTest::newRow("local") << QByteArray("{\"hostname\":\"127.0.0.2:41000\",\"url\":\"http://"
                                             "127.0.0.2:41000/?lizard_token=t1\","
                                             "\"port\":8000,\"accessToken\":\"t1\"}")
                               << true << "127.0.0.2:41000" << 8000;
        QTest::newRow("cloud, extra fields")
            << QByteArray(
                   "{\"hostname\":\"abc-8000.sandbox.example.com\",\"url\":\"https://abc-8000."
                   "sandbox.example.com/?lizard_token=t\",\"port\":8000,"
                   "\"accessToken\":\"t\",\"expiresAt\":null,\"x\":[1]}")
            << true << "abc-8000.sandbox.example.com" << 8000;
        QTest::newRow("port absent: the requested one")
            << QByteArray("{\"hostname\":\"h\",\"url\":\"http://h/"
                          "?lizard_token=t\",\"accessToken\":\"t\"}")
            << true << "h" << 8000;
        QTest::newRow("another port")
            << QByteArray("{\"hostname\":\"h\",\"url\":\"u\",\"port\":9,\"accessToken\":\"t\"}")
            << false << "" << 0;
        QTest::newRow("no token") << QByteArray("{\"hostname\":\"h\",\"url\":\"u\",\"port\":8000}")
                                  << false << "" << 0;
        QTest::newRow("no url") << QByteArray(
                                       "{\"hostname\":\"h\",\"port\":8000,\"accessToken\":\"t\"}")
                                << false << "" << 0;
        QTest::newRow("port as text")
            << QByteArray(
                   "{\"hostname\":\"h\",\"url\":\"u\",\"port\":\"8000\",\"accessToken\":\"t\"}")
            << false << "" << 0;
        QTest::newRow("an array") << QByteArray("[]") << false << "" << 0;
        QTest::newRow("not json") << QByteArray("<html>") << false << "" << 0;
        QTest::newRow("empty") << QByteArray() << false << "" << 0;
    }
    void parse()
    {
        QFETCH(QByteArray, body);
        QFETCH(bool, ok);
        QFETCH(QString, hostname);
        QFETCH(int, port);
        const Outcome<ExposedPort> o = parseExposedPort(body, 8000, "Expose port 8000");
        QCOMPARE(o.ok(), ok);
        if (!ok) {
            QCOMPARE(o.error().kind, ApiError::Kind::Protocol);
            QCOMPARE(o.error().what, QString("Expose port 8000"));
            return;
        }
        QCOMPARE(o.value().hostname, hostname);
        QCOMPARE(o.value().port, port);
        QVERIFY(o.value().url.contains("lizard_token="));
        QVERIFY(!o.value().accessToken.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestPortMapping)
#include "tst_portmapping.moc"
