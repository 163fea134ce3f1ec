// allowedHosts without a sandbox: which entries the API takes and how it splits them
// (sandboxes/allowedhosts.cpp), and which names the sandbox's DNS forwarder lets through
// (agent/serve/dnsmessage.cpp). tests/security/tst_sec_allowedhosts.cpp runs the real thing.
#include "agent/serve/dnsmessage.h"
#include "http/responses.h"
#include "sandboxes/allowedhosts.h"

#include <QtTest>

using lizard::sandboxes::parseAllowedHosts;

class TestAllowedHosts : public QObject
{
    Q_OBJECT

private slots:
    void entries_data()
    {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QString>("kind"); // "name", "cidr <normalised>" or the error code
        QTest::newRow("name") << "pypi.org"
                              << "name";
        QTest::newRow("upper case") << "PyPI.org"
                                    << "name";
        QTest::newRow("wildcard") << "*.pythonhosted.org"
                                  << "name";
        QTest::newRow("underscore, dash, digits") << "a_b-2.x9.test"
                                                  << "name";
        QTest::newRow("address") << "140.82.112.3"
                                 << "cidr 140.82.112.3/32";
        QTest::newRow("range") << "140.82.112.0/20"
                               << "cidr 140.82.112.0/20";
        QTest::newRow("everything") << "0.0.0.0/0"
                                    << "cidr 0.0.0.0/0";
        QTest::newRow("one label") << "localhost"
                                   << "INVALID_ALLOWED_HOST";
        QTest::newRow("numeric last label") << "a.123"
                                            << "INVALID_ALLOWED_HOST";
        QTest::newRow("star inside") << "a.*.org"
                                     << "INVALID_ALLOWED_HOST";
        QTest::newRow("bare star") << "*"
                                   << "INVALID_ALLOWED_HOST";
        QTest::newRow("trailing dot") << "pypi.org."
                                      << "INVALID_ALLOWED_HOST";
        QTest::newRow("space") << "py pi.org"
                               << "INVALID_ALLOWED_HOST";
        QTest::newRow("empty") << ""
                               << "INVALID_ALLOWED_HOST";
        QTest::newRow("long label") << QString(64, 'a') + ".org"
                                    << "INVALID_ALLOWED_HOST";
        QTest::newRow("url") << "https://pypi.org"
                             << "INVALID_ALLOWED_HOST";
        QTest::newRow("port") << "pypi.org:443"
                              << "INVALID_ALLOWED_HOST";
        QTest::newRow("ipv6") << "::1"
                              << "INVALID_ALLOWED_HOST";
        QTest::newRow("/33") << "10.0.0.0/33"
                             << "INVALID_ALLOWED_HOST";
        QTest::newRow("/08") << "10.0.0.0/08"
                             << "INVALID_ALLOWED_HOST";
        QTest::newRow("octet 256") << "10.0.0.256"
                                   << "INVALID_ALLOWED_HOST";
        QTest::newRow("leading zero") << "10.0.0.01"
                                      << "INVALID_ALLOWED_HOST";
        QTest::newRow("three octets") << "10.0.1"
                                      << "INVALID_ALLOWED_HOST";
        QTest::newRow("five octets") << "1.2.3.4.5"
                                     << "INVALID_ALLOWED_HOST";
        QTest::newRow("empty prefix") << "10.0.0.0/"
                                      << "INVALID_ALLOWED_HOST";
    }
    void entries()
    {
        QFETCH(QString, entry);
        QFETCH(QString, kind);
        auto r = parseAllowedHosts({entry.toStdString()});
        if (!r) {
            QCOMPARE(QString::fromStdString(r.error().code), kind);
            QCOMPARE(lizard::http::httpStatus(r.error().kind), 400);
            QVERIFY(QString::fromStdString(r.error().message).contains("allowedHosts[0]"));
            return;
        }
        QCOMPARE(r->entries.size(), size_t(1));
        QCOMPARE(QString::fromStdString(r->entries[0]), entry.toLower());
        if (kind == "name") {
            QCOMPARE(r->names.size(), size_t(1));
            QVERIFY(r->cidrs.empty());
        } else {
            QCOMPARE(r->cidrs.size(), size_t(1));
            QCOMPARE("cidr " + QString::fromStdString(r->cidrs[0]), kind);
        }
    }

    void fiftyAtMost()
    {
        std::vector<std::string> list;
        for (int i = 0; i < 50; ++i)
            list.push_back("h" + std::to_string(i) + ".example.org");
        QVERIFY(parseAllowedHosts(list));
        list.push_back("10.0.0.1");
        QCOMPARE(QString::fromStdString(parseAllowedHosts(list).error().code),
                 QStringLiteral("TOO_MANY_ALLOWED_HOSTS"));
    }

    void duplicatesAreKeptOnce()
    {
        auto r = parseAllowedHosts({"pypi.org", "PYPI.org", "10.0.0.1", "10.0.0.1"});
        QVERIFY(r);
        QCOMPARE(r->entries, (std::vector<std::string>{"pypi.org", "10.0.0.1"}));
    }

    void forwarderMatching_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("allowed");
        QTest::newRow("exact") << "pypi.org" << true;
        QTest::newRow("subdomain of an exact name") << "www.pypi.org" << false;
        QTest::newRow("wildcard subdomain") << "a.example.test" << true;
        QTest::newRow("wildcard deeper") << "a.b.example.test" << true;
        QTest::newRow("wildcard apex") << "example.test" << false;
        QTest::newRow("suffix trick") << "example.test.evil" << false;
        QTest::newRow("glued suffix") << "evilexample.test" << false;
        QTest::newRow("other") << "denied.test" << false;
    }
    void forwarderMatching()
    {
        QFETCH(QString, name);
        QFETCH(bool, allowed);
        QCOMPARE(lizard::agent::dnsNameAllowed(name.toStdString(), {"pypi.org", "*.example.test"}),
                 allowed);
    }
};

QTEST_GUILESS_MAIN(TestAllowedHosts)
#include "tst_api_allowedhosts.moc"
