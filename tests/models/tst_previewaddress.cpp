// PreviewAddress: the token never appears in what the preview shows, and is added only to
// links on the exposure's own origin.
#include "models/previewaddress.h"

#include <QTest>

using namespace lizard;
using models::PreviewAddress;

namespace {
client::ExposedPort exposure(const QString& url = "http://127.1.2.3:8000/?lizard_token=tok_abc",
                             const QString& token = "tok_abc")
{
    return {"127.1.2.3:8000", url, 8000, token};
}
} // namespace

class TestPreviewAddress : public QObject
{
    Q_OBJECT
private slots:
    void fromExposure()
    {
        const PreviewAddress a(exposure());
        QVERIFY(a.isValid());
        QCOMPARE(a.origin(), QUrl("http://127.1.2.3:8000/"));
        QCOMPARE(a.startUrl(), QUrl("http://127.1.2.3:8000/"));
        QCOMPARE(a.token(), QByteArray("tok_abc"));
        QCOMPARE(a.sandboxPort(), 8000);
        QVERIFY(!PreviewAddress(exposure("not a url")).isValid());
        QVERIFY(!PreviewAddress().isValid());
        // A cloud-style url with a path and other query items keeps them, without the token.
        const PreviewAddress cloud(
            exposure("https://abc-3000.sandbox.example.com/app?x=1&lizard_token=t&y=2", "t"));
        QCOMPARE(cloud.startUrl(), QUrl("https://abc-3000.sandbox.example.com/app?x=1&y=2"));
        QCOMPARE(cloud.origin(), QUrl("https://abc-3000.sandbox.example.com/"));
    }

    void withoutToken_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("only the token") << "http://h:1/?lizard_token=abc"
                                        << "http://h:1/";
        QTest::newRow("first of several") << "http://h:1/p?lizard_token=abc&a=1"
                                          << "http://h:1/p?a=1";
        QTest::newRow("last of several") << "http://h:1/p?a=1&lizard_token=abc"
                                         << "http://h:1/p?a=1";
        QTest::newRow("twice") << "http://h:1/?lizard_token=a&b=2&lizard_token=c"
                               << "http://h:1/?b=2";
        QTest::newRow("encoded key") << "http://h:1/?lizard%5Ftoken=abc"
                                     << "http://h:1/";
        QTest::newRow("other items byte-exact") << "http://h:1/?q=a%20b%2Bc&lizard_token=x"
                                                << "http://h:1/?q=a%20b%2Bc";
        QTest::newRow("no token") << "http://h:1/p?a=1#frag"
                                  << "http://h:1/p?a=1#frag";
        QTest::newRow("fragment kept") << "http://h:1/p?lizard_token=x#frag"
                                       << "http://h:1/p#frag";
        QTest::newRow("similar name kept") << "http://h:1/?lizard_token2=x"
                                           << "http://h:1/?lizard_token2=x";
    }
    void withoutToken()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        const QUrl result = PreviewAddress::withoutToken(QUrl(in));
        QCOMPARE(result.toString(QUrl::FullyEncoded), QUrl(out).toString(QUrl::FullyEncoded));
        QVERIFY(!result.toString().contains("lizard_token="));
    }

    void shareable_data()
    {
        QTest::addColumn<QString>("page");
        QTest::addColumn<QString>("expected");
        QTest::newRow("root") << "http://127.1.2.3:8000/"
                              << "http://127.1.2.3:8000/?lizard_token=tok_abc";
        QTest::newRow("path and query") << "http://127.1.2.3:8000/docs/?q=1"
                                        << "http://127.1.2.3:8000/docs/?q=1&lizard_token=tok_abc";
        QTest::newRow("already tokenized") << "http://127.1.2.3:8000/?lizard_token=old"
                                           << "http://127.1.2.3:8000/?lizard_token=tok_abc";
        QTest::newRow("other port: unchanged") << "http://127.1.2.3:8001/"
                                               << "http://127.1.2.3:8001/";
        QTest::newRow("other host: unchanged") << "http://example.com:8000/"
                                               << "http://example.com:8000/";
        QTest::newRow("other scheme: unchanged") << "https://127.1.2.3:8000/"
                                                 << "https://127.1.2.3:8000/";
    }
    void shareable()
    {
        QFETCH(QString, page);
        QFETCH(QString, expected);
        QCOMPARE(PreviewAddress(exposure()).shareable(QUrl(page)), QUrl(expected));
    }

    void tokenIsEncoded()
    {
        const PreviewAddress a(exposure("http://127.1.2.3:8000/", "a+b/c=&d"));
        const QUrl link = a.shareable(QUrl("http://127.1.2.3:8000/"));
        QCOMPARE(link.query(QUrl::FullyEncoded), QString("lizard_token=a%2Bb%2Fc%3D%26d"));
        QCOMPARE(PreviewAddress::withoutToken(link), QUrl("http://127.1.2.3:8000/"));
    }

    void resolveTyped_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty: start") << ""
                                      << "http://127.1.2.3:8000/";
        QTest::newRow("absolute path") << "/docs/a.html"
                                       << "http://127.1.2.3:8000/docs/a.html";
        QTest::newRow("relative path") << "docs?q=1"
                                       << "http://127.1.2.3:8000/docs?q=1";
        QTest::newRow("full url") << "http://example.com/x"
                                  << "http://example.com/x";
        QTest::newRow("host and port") << "127.1.2.3:8000/y"
                                       << "http://127.1.2.3:8000/y";
    }
    void resolveTyped()
    {
        QFETCH(QString, typed);
        QFETCH(QString, expected);
        QCOMPARE(PreviewAddress(exposure()).resolveTyped(typed), QUrl(expected));
    }

    void sameOriginDefaultPorts()
    {
        const PreviewAddress cloud(exposure("https://abc.example.com/?lizard_token=t", "t"));
        QVERIFY(cloud.isSameOrigin(QUrl("https://abc.example.com:443/x")));
        QVERIFY(cloud.isSameOrigin(QUrl("https://ABC.example.com/x")));
        QVERIFY(!cloud.isSameOrigin(QUrl("http://abc.example.com/x")));
        QVERIFY(!cloud.isSameOrigin(QUrl("https://abc.example.com.evil.test/x")));
    }
};

QTEST_GUILESS_MAIN(TestPreviewAddress)
#include "tst_previewaddress.moc"
