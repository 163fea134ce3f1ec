// The proxy's access rules as pure functions: targets, Host matching, token removal from
// the query and the Cookie header, the cookie it sets.
#include "proxy/accessrules.h"

#include <QTest>

using namespace lizard::proxy;

class TestProxyRules : public QObject
{
    Q_OBJECT

private slots:
    void parseTargets_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("valid");
        QTest::addColumn<QString>("authority");
        QTest::addColumn<QString>("originForm");
        QTest::newRow("root") << "/" << true << ""
                              << "/";
        QTest::newRow("query") << "/a/b?x=1&y" << true << ""
                               << "/a/b?x=1&y";
        QTest::newRow("empty query kept") << "/a?" << true << ""
                                          << "/a?";
        QTest::newRow("absolute") << "http://127.1.2.3:7412/p?q" << true << "127.1.2.3:7412"
                                  << "/p?q";
        QTest::newRow("absolute, no path") << "http://127.1.2.3:7412" << true << "127.1.2.3:7412"
                                           << "/";
        QTest::newRow("absolute, query only") << "http://h?q=1" << true << "h"
                                              << "/?q=1";
        QTest::newRow("asterisk") << "*" << false << ""
                                  << "";
        QTest::newRow("authority form") << "example.com:443" << false << ""
                                        << "";
        QTest::newRow("https scheme") << "https://h/" << false << ""
                                      << "";
        QTest::newRow("empty authority") << "http:///x" << false << ""
                                         << "";
    }
    void parseTargets()
    {
        QFETCH(QString, target);
        QFETCH(bool, valid);
        QFETCH(QString, authority);
        QFETCH(QString, originForm);
        const auto t = parseTarget(target.toStdString());
        QCOMPARE(t.has_value(), valid);
        if (!valid)
            return;
        QCOMPARE(QString::fromStdString(t->authority), authority);
        QCOMPARE(QString::fromStdString(t->originForm()), originForm);
    }

    void hosts_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<bool>("matches");
        QTest::newRow("exact") << "127.9.8.7:7412" << 7412 << true;
        QTest::newRow("other port") << "127.9.8.7:7413" << 7412 << false;
        QTest::newRow("no port") << "127.9.8.7" << 7412 << false;
        QTest::newRow("no port, port 80") << "127.9.8.7" << 80 << true;
        QTest::newRow("other address") << "127.9.8.6:7412" << 7412 << false;
        QTest::newRow("name") << "evil.example:7412" << 7412 << false;
        QTest::newRow("prefix trick") << "127.9.8.7:74120" << 7412 << false;
        QTest::newRow("suffix trick") << "127.9.8.7:7412.evil" << 7412 << false;
        QTest::newRow("empty") << "" << 7412 << false;
    }
    void hosts()
    {
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(bool, matches);
        QCOMPARE(hostMatches(host.toStdString(), "127.9.8.7", quint16(port)), matches);
    }

    void queryTokens_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addColumn<bool>("found");
        QTest::addColumn<QString>("token");
        QTest::addColumn<QString>("rest");
        QTest::newRow("only") << "lizard_token=abc" << true << "abc"
                              << "";
        QTest::newRow("first") << "lizard_token=abc&x=1" << true << "abc"
                               << "x=1";
        QTest::newRow("middle") << "a=1&lizard_token=abc&b=%20" << true << "abc"
                                << "a=1&b=%20";
        QTest::newRow("twice, last wins") << "lizard_token=a&lizard_token=b" << true << "b"
                                          << "";
        QTest::newRow("encoded") << "lizard_token=a%2Bb" << true << "a+b"
                                 << "";
        QTest::newRow("absent") << "x=lizard_token" << false << ""
                                << "x=lizard_token";
        QTest::newRow("prefix name") << "my_lizard_token=1" << false << ""
                                     << "my_lizard_token=1";
    }
    void queryTokens()
    {
        QFETCH(QString, query);
        QFETCH(bool, found);
        QFETCH(QString, token);
        QFETCH(QString, rest);
        auto t = parseTarget(("/p?" + query).toStdString());
        QVERIFY(t);
        const auto got = takeQueryToken(*t);
        QCOMPARE(got.has_value(), found);
        if (found)
            QCOMPARE(QString::fromStdString(*got), token);
        QCOMPARE(QString::fromStdString(t->originForm()),
                 rest.isEmpty() ? QString("/p") : "/p?" + rest);
    }

    void cookies_data()
    {
        QTest::addColumn<QString>("header");
        QTest::addColumn<bool>("found");
        QTest::addColumn<QString>("token");
        QTest::addColumn<QString>("rest");
        QTest::newRow("only") << "lizard_token=abc" << true << "abc"
                              << "";
        QTest::newRow("among others") << "a=1; lizard_token=abc; b=2" << true << "abc"
                                      << "a=1; b=2";
        QTest::newRow("no spaces") << "a=1;lizard_token=abc" << true << "abc"
                                   << "a=1";
        QTest::newRow("quoted") << "lizard_token=\"abc\"" << true << "abc"
                                << "";
        QTest::newRow("absent") << "a=1; b=lizard_token" << false << ""
                                << "a=1; b=lizard_token";
        QTest::newRow("similar name") << "xlizard_token=1" << false << ""
                                      << "xlizard_token=1";
    }
    void cookies()
    {
        QFETCH(QString, header);
        QFETCH(bool, found);
        QFETCH(QString, token);
        QFETCH(QString, rest);
        std::string h = header.toStdString();
        const auto got = takeCookieToken(h);
        QCOMPARE(got.has_value(), found);
        if (found)
            QCOMPARE(QString::fromStdString(*got), token);
        QCOMPARE(QString::fromStdString(h), rest);
    }

    void tokensCompare()
    {
        QVERIFY(sameToken("lzt_abc", "lzt_abc"));
        QVERIFY(!sameToken("lzt_abd", "lzt_abc"));
        QVERIFY(!sameToken("lzt_ab", "lzt_abc"));
        QVERIFY(!sameToken("lzt_abcd", "lzt_abc"));
        QVERIFY(!sameToken("", ""));
    }

    void cookieAttributes()
    {
        const QString c = QString::fromStdString(tokenCookie("lzt_x"));
        QCOMPARE(c, QString("lizard_token=lzt_x; Path=/; HttpOnly; SameSite=Lax"));
    }
};

QTEST_GUILESS_MAIN(TestProxyRules)
#include "tst_proxy_rules.moc"
