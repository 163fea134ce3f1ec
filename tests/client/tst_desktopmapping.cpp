// The desktop answer (client/desktopmapping.h) and the viewer page the Screen tab loads
// (models/desktop/screenaddress.h): the SDK's DesktopInfo shape, null sizes before the first
// start, both URLs required; the page gets the embedded viewer's options and keeps its
// credentials.
#include "client/jsonmapping.h"
#include "models/desktop/screenaddress.h"

#include <QTest>
#include <QUrlQuery>

using namespace lizard::client;
using lizard::models::ScreenAddress;

class TestDesktopMapping : public QObject
{
    Q_OBJECT
private slots:
    void parse_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<bool>("running");
        QTest::addColumn<int>("width");
        QTest::newRow("running")
            << QByteArray(
                   "{\"running\":true,\"width\":1024,\"height\":768,\"url\":\"http://a/vnc.html\","
                   "\"viewOnlyUrl\":\"http://b/vnc.html\",\"x\":1}")
            << true << true << 1024;
        QTest::newRow("never started") << QByteArray("{\"running\":false,\"width\":null,\"height\":"
                                                     "null,\"url\":\"u\",\"viewOnlyUrl\":\"v\"}")
                                       << true << false << 0;
        QTest::newRow("no view-only url")
            << QByteArray("{\"running\":true,\"width\":1,\"height\":1,\"url\":\"u\"}") << false
            << false << 0;
        QTest::newRow("negative size") << QByteArray("{\"running\":true,\"width\":-1,\"height\":1,"
                                                     "\"url\":\"u\",\"viewOnlyUrl\":\"v\"}")
                                       << false << false << 0;
        QTest::newRow("width as text")
            << QByteArray("{\"running\":true,\"width\":\"800\",\"height\":600,\"url\":\"u\","
                          "\"viewOnlyUrl\":\"v\"}")
            << false << false << 0;
        QTest::newRow("not json") << QByteArray("<html>") << false << false << 0;
    }
    void parse()
    {
        QFETCH(QByteArray, body);
        QFETCH(bool, ok);
        QFETCH(bool, running);
        QFETCH(int, width);
        const Outcome<DesktopInfo> o = parseDesktopInfo(body, "Desktop");
        QCOMPARE(o.ok(), ok);
        if (!ok) {
            QCOMPARE(o.error().kind, ApiError::Kind::Protocol);
            QCOMPARE(o.error().what, QString("Desktop"));
            return;
        }
        QCOMPARE(o.value().running, running);
        QCOMPARE(o.value().width, width);
    }

    void viewerPage()
    {
        DesktopInfo info;
        info.url = "http://127.0.0.5:7000/"
                   "vnc.html?lizard_token=tok%2Bx&autoconnect=true&resize=remote&password=full";
        info.viewOnlyUrl = "http://127.0.0.6:7000/vnc.html?lizard_token=tok%2Bx&password=view";
        const QUrl watch = ScreenAddress::viewerUrl(info, false);
        const QUrl control = ScreenAddress::viewerUrl(info, true);
        QCOMPARE(watch.host(), QString("127.0.0.6"));
        QCOMPARE(control.host(), QString("127.0.0.5"));
        const QUrlQuery w(watch), c(control);
        QCOMPARE(w.queryItemValue("password"), QString("view"));
        QCOMPARE(c.queryItemValue("password"), QString("full"));
        QCOMPARE(w.queryItemValue("view_only"), QString("true"));
        QCOMPARE(c.queryItemValue("view_only"), QString("false"));
        // The server's own option is replaced, never doubled.
        QCOMPARE(c.allQueryItemValues("resize"), QStringList{"scale"});
        QCOMPARE(c.queryItemValue("reconnect"), QString("true"));
        QCOMPARE(ScreenAddress::token(control), QByteArray("tok+x"));
        QCOMPARE(ScreenAddress::origin(control), QUrl("http://127.0.0.5:7000/"));
        info.viewOnlyUrl = "not a url";
        QVERIFY(!ScreenAddress::viewerUrl(info, false).isValid());
    }
};

QTEST_GUILESS_MAIN(TestDesktopMapping)
#include "tst_desktopmapping.moc"
