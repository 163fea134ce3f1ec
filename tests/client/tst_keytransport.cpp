// The client never sends an API key over plain http:// to a host that is not this computer
// unless the endpoint carries the user's confirmation (the Connections dialog asks).
#include "client/keytransport.h"
#include "client/requestbuilder.h"

#include <QTest>

using namespace lizard::client;

namespace {

bool sendsKey(const Endpoint& e)
{
    const HttpRequest r = RequestBuilder(e).json("GET", "/api/auth/me");
    for (const QByteArray& h : r.headers)
        if (h.startsWith("X-API-Key:"))
            return true;
    return false;
}

} // namespace

class TestKeyTransport : public QObject
{
    Q_OBJECT
private slots:
    void inClear_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<bool>("inClear");
        QTest::newRow("https") << "https://lizard.build" << false;
        QTest::newRow("HTTPS upper") << "HTTPS://lizard.build" << false;
        QTest::newRow("http remote") << "http://example.test" << true;
        QTest::newRow("http remote ip") << "http://192.168.1.5:7411" << true;
        QTest::newRow("http 127.0.0.1") << "http://127.0.0.1:7411" << false;
        QTest::newRow("http 127.255.0.1") << "http://127.255.0.1" << false;
        QTest::newRow("http localhost") << "http://LOCALHOST:7411/" << false;
        QTest::newRow("http ::1") << "http://[::1]:7411" << false;
        QTest::newRow("lookalike") << "http://127.0.0.1.example.test" << true;
        QTest::newRow("localhost lookalike") << "http://localhost.example.test" << true;
        QTest::newRow("ftp") << "ftp://lizard.build" << true;
        QTest::newRow("garbage") << "::" << true;
    }
    void inClear()
    {
        QFETCH(QString, url);
        QFETCH(bool, inClear);
        QCOMPARE(keyTravelsInClear(url), inClear);
    }

    void requestBuilderWithholdsUnconfirmedKey()
    {
        QVERIFY(!sendsKey({"http://example.test", "liz_k"}));
        QVERIFY(sendsKey({"http://example.test", "liz_k", true})); // the user said yes
        QVERIFY(sendsKey({"https://lizard.build", "liz_k"}));
        QVERIFY(sendsKey({"http://127.0.0.1:7411", "liz_k"}));
    }
};

QTEST_GUILESS_MAIN(TestKeyTransport)
#include "tst_keytransport.moc"
