// Error mapping: HTTP status + body + headers → ApiError, as the official SDK maps them.

#include "client/errormapping.h"

#include <QTest>
#include <curl/curl.h>

using lizard::client::ApiError;
using lizard::client::HeaderList;
using Kind = lizard::client::ApiError::Kind;

Q_DECLARE_METATYPE(lizard::client::ApiError::Kind)

class TestErrorMapping : public QObject
{
    Q_OBJECT
private slots:
    void mapsHttpErrors_data();
    void mapsHttpErrors();
    void rateLimit_data();
    void rateLimit();
    void retryAfterAsHttpDate();
    void transportErrors_data();
    void transportErrors();
    void tlsErrors_data();
    void tlsErrors();
    void responses_data();
    void responses();
    void displayString_data();
    void displayString();
};

void TestErrorMapping::mapsHttpErrors_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("message");

    QTest::newRow("401 code + message")
        << 401 << QByteArray(R"({"error":"UNAUTHORIZED","message":"bad key"})")
        << Kind::Authentication << "UNAUTHORIZED"
        << "bad key";
    QTest::newRow("403") << 403 << QByteArray(R"({"error":"forbidden here"})")
                         << Kind::Authentication << ""
                         << "forbidden here";
    QTest::newRow("402") << 402 << QByteArray(R"({"message":"top up"})") << Kind::Payment << ""
                         << "top up";
    QTest::newRow("404 code only")
        << 404 << QByteArray(R"({"error":"NOT_FOUND"})") << Kind::NotFound << "NOT_FOUND"
        << "NOT_FOUND";
    QTest::newRow("409 explicit code wins")
        << 409 << QByteArray(R"({"error":"VOLUME_BUSY","code":"CONFLICT_X","message":"m"})")
        << Kind::Conflict << "CONFLICT_X"
        << "m";
    QTest::newRow("408") << 408 << QByteArray(R"({"error":"too slow"})") << Kind::Timeout << ""
                         << "too slow";
    QTest::newRow("504") << 504 << QByteArray() << Kind::Timeout << ""
                         << "Gateway Timeout";
    QTest::newRow("400") << 400
                         << QByteArray(R"({"error":"INVALID_REQUEST","message":"cmd is required"})")
                         << Kind::InvalidRequest << "INVALID_REQUEST"
                         << "cmd is required";
    QTest::newRow("413") << 413 << QByteArray(R"({"message":"body too large"})")
                         << Kind::InvalidRequest << ""
                         << "body too large";
    QTest::newRow("422") << 422 << QByteArray(R"({"error":"x","code":"bad_size"})")
                         << Kind::InvalidRequest << "bad_size"
                         << "x";
    QTest::newRow("500 plain text body kept")
        << 500 << QByteArray("  upstream exploded\n") << Kind::Server << ""
        << "upstream exploded";
    QTest::newRow("502 html body kept")
        << 502 << QByteArray("<html>bad gateway</html>") << Kind::Server << ""
        << "<html>bad gateway</html>";
    QTest::newRow("503 empty body: reason") << 503 << QByteArray() << Kind::Server << ""
                                            << "Service Unavailable";
    QTest::newRow("418 unknown status")
        << 418 << QByteArray(R"({"error":"teapot"})") << Kind::Server << ""
        << "teapot";
    QTest::newRow("error not a code: error is the message")
        << 404 << QByteArray(R"({"error":"Sandbox sb_1 not found","message":"ignored"})")
        << Kind::NotFound << ""
        << "Sandbox sb_1 not found";
    QTest::newRow("lower-case error is not a code")
        << 409 << QByteArray(R"({"error":"already_exists"})") << Kind::Conflict << ""
        << "already_exists";
    QTest::newRow("code must start with a letter")
        << 400 << QByteArray(R"({"error":"1BAD"})") << Kind::InvalidRequest << ""
        << "1BAD";
    QTest::newRow("wrong types ignored")
        << 400 << QByteArray(R"({"error":5,"message":["x"],"code":null})") << Kind::InvalidRequest
        << ""
        << "Bad Request";
    QTest::newRow("JSON array body") << 500 << QByteArray("[1,2]") << Kind::Server << ""
                                     << "Internal Server Error";
    QTest::newRow("empty strings ignored")
        << 404 << QByteArray(R"({"error":"","message":"gone"})") << Kind::NotFound << ""
        << "gone";
}

void TestErrorMapping::mapsHttpErrors()
{
    QFETCH(int, status);
    QFETCH(QByteArray, body);
    QFETCH(Kind, kind);
    QFETCH(QString, code);
    QFETCH(QString, message);
    const ApiError e = lizard::client::mapHttpError(status, body, {}, QStringLiteral("Do it"));
    QCOMPARE(e.kind, kind);
    QCOMPARE(e.httpStatus, status);
    QCOMPARE(e.code, code);
    QCOMPARE(e.message, message);
    QCOMPARE(e.what, QStringLiteral("Do it"));
    QCOMPARE(e.retryAfterS, -1);
}

void TestErrorMapping::rateLimit_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<HeaderList>("headers");
    QTest::addColumn<int>("retryAfterS");
    QTest::addColumn<int>("limit");
    QTest::addColumn<int>("running");

    QTest::newRow("all in the body")
        << QByteArray(
               R"({"error":"LIMIT","message":"too many","retryAfterS":30,"limit":5,"running":5,"unit":"sandboxes"})")
        << HeaderList{} << 30 << 5 << 5;
    QTest::newRow("body beats header")
        << QByteArray(R"({"retryAfterS":7})") << HeaderList{{"retry-after", "99"}} << 7 << -1 << -1;
    QTest::newRow("Retry-After header")
        << QByteArray(R"({"error":"slow down"})")
        << HeaderList{{"content-type", "application/json"}, {"retry-after", "12"}} << 12 << -1
        << -1;
    QTest::newRow("fractional seconds round up")
        << QByteArray(R"({"retryAfterS":1.2})") << HeaderList{} << 2 << -1 << -1;
    QTest::newRow("non-numeric fields ignored")
        << QByteArray(R"({"retryAfterS":"soon","limit":"5"})")
        << HeaderList{{"retry-after", "garbage"}} << -1 << -1 << -1;
    QTest::newRow("plain text body, header")
        << QByteArray("Too Many Requests") << HeaderList{{"retry-after", "3"}} << 3 << -1 << -1;
}

void TestErrorMapping::rateLimit()
{
    QFETCH(QByteArray, body);
    QFETCH(HeaderList, headers);
    QFETCH(int, retryAfterS);
    QFETCH(int, limit);
    QFETCH(int, running);
    const ApiError e =
        lizard::client::mapHttpError(429, body, headers, QStringLiteral("Create sandbox"));
    QCOMPARE(e.kind, Kind::RateLimit);
    QCOMPARE(e.retryAfterS, retryAfterS);
    QCOMPARE(e.limit, limit);
    QCOMPARE(e.running, running);
}

void TestErrorMapping::retryAfterAsHttpDate()
{
    const QByteArray date =
        QDateTime::currentDateTimeUtc().addSecs(60).toString(Qt::RFC2822Date).toLatin1();
    const ApiError e = lizard::client::mapHttpError(429, {}, {{"retry-after", date}}, {});
    QVERIFY2(e.retryAfterS >= 55 && e.retryAfterS <= 61,
             qPrintable(QString::number(e.retryAfterS)));
}

void TestErrorMapping::transportErrors_data()
{
    QTest::addColumn<int>("curlCode");
    QTest::addColumn<QString>("curlMessage");
    QTest::addColumn<Kind>("kind");
    QTest::addColumn<QString>("message");
    QTest::newRow("refused") << int(CURLE_COULDNT_CONNECT)
                             << "Failed to connect to 127.0.0.1 port 1" << Kind::Network
                             << "Failed to connect to 127.0.0.1 port 1";
    QTest::newRow("dns") << int(CURLE_COULDNT_RESOLVE_HOST) << "" << Kind::Network
                         << QString::fromUtf8(curl_easy_strerror(CURLE_COULDNT_RESOLVE_HOST));
    QTest::newRow("timeout") << int(CURLE_OPERATION_TIMEDOUT) << "Operation timed out after 100 ms"
                             << Kind::Timeout << "Operation timed out after 100 ms";
}

void TestErrorMapping::transportErrors()
{
    QFETCH(int, curlCode);
    QFETCH(QString, curlMessage);
    QFETCH(Kind, kind);
    QFETCH(QString, message);
    const ApiError e =
        lizard::client::mapTransportError(curlCode, curlMessage, QStringLiteral("List projects"));
    QCOMPARE(e.kind, kind);
    QCOMPARE(e.httpStatus, 0);
    QCOMPARE(e.message, message);
}

// TLS failures name the cause in words a user can act on, with curl's detail kept.
void TestErrorMapping::tlsErrors_data()
{
    QTest::addColumn<int>("curlCode");
    QTest::addColumn<QString>("curlMessage");
    QTest::addColumn<QString>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("untrusted") << int(CURLE_PEER_FAILED_VERIFICATION)
                               << "SSL certificate problem: unable to get local issuer certificate"
                               << "CERTIFICATE_UNTRUSTED"
                               << "The server's certificate is not trusted (unable to get local "
                                  "issuer certificate). If your "
                                  "organisation uses its own certificate authority, choose its "
                                  "certificate in Connections.";
    QTest::newRow("self-signed")
        << int(CURLE_PEER_FAILED_VERIFICATION) << "SSL certificate problem: self-signed certificate"
        << "CERTIFICATE_UNTRUSTED"
        << "The server's certificate is not trusted (self-signed certificate). If your "
           "organisation uses "
           "its own certificate authority, choose its certificate in Connections.";
    QTest::newRow("host name")
        << int(CURLE_PEER_FAILED_VERIFICATION)
        << "SSL: no alternative certificate subject name matches target host name 'a.test'"
        << "CERTIFICATE_HOST_MISMATCH"
        << "The server's certificate is for another host name (no alternative certificate subject "
           "name "
           "matches target host name 'a.test'). Check the connection's URL; a proxy in between may "
           "also "
           "present its own certificate.";
    QTest::newRow("bad CA file")
        << int(CURLE_SSL_CACERT_BADFILE) << "error setting certificate file: /nope.pem"
        << "CA_FILE_UNUSABLE"
        << "The CA certificate file cannot be used (error setting certificate file: /nope.pem). "
           "Choose a "
           "readable PEM certificate in Connections, or correct LIZARD_CA_BUNDLE.";
    QTest::newRow("handshake")
        << int(CURLE_SSL_CONNECT_ERROR) << "OpenSSL SSL_connect: SSL_ERROR_SYSCALL"
        << "TLS_HANDSHAKE_FAILED"
        << "The secure connection to the server could not be set up (OpenSSL SSL_connect: "
           "SSL_ERROR_SYSCALL). A proxy or firewall in between may be interfering.";
}

void TestErrorMapping::tlsErrors()
{
    QFETCH(int, curlCode);
    QFETCH(QString, curlMessage);
    QFETCH(QString, code);
    QFETCH(QString, message);
    const ApiError e =
        lizard::client::mapTransportError(curlCode, curlMessage, QStringLiteral("Connect"));
    QCOMPARE(e.kind, Kind::Network);
    QCOMPARE(e.code, code);
    QCOMPARE(e.message, message);
}

void TestErrorMapping::responses_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<int>("curlCode");
    QTest::addColumn<bool>("cancelled");
    QTest::addColumn<bool>("isError");
    QTest::addColumn<Kind>("kind");
    QTest::newRow("200") << 200 << 0 << false << false << Kind::Server;
    QTest::newRow("204") << 204 << 0 << false << false << Kind::Server;
    QTest::newRow("cancelled wins") << 0 << 0 << true << true << Kind::Cancelled;
    QTest::newRow("curl failure") << 0 << int(CURLE_RECV_ERROR) << false << true << Kind::Network;
    QTest::newRow("404") << 404 << 0 << false << true << Kind::NotFound;
    QTest::newRow("302 not followed") << 302 << 0 << false << true << Kind::Server;
    QTest::newRow("no status") << 0 << 0 << false << true << Kind::Protocol;
}

void TestErrorMapping::responses()
{
    QFETCH(int, status);
    QFETCH(int, curlCode);
    QFETCH(bool, cancelled);
    QFETCH(bool, isError);
    QFETCH(Kind, kind);
    lizard::client::HttpResponse r;
    r.status = status;
    r.curlCode = curlCode;
    r.cancelled = cancelled;
    r.headers = {{"location", "https://elsewhere.example/"}};
    const auto e = lizard::client::errorFromResponse(r, QStringLiteral("x"));
    QCOMPARE(e.has_value(), isError);
    if (e) {
        QCOMPARE(e->kind, kind);
        if (status == 302)
            QVERIFY(e->message.contains(QLatin1String("https://elsewhere.example/")));
    }
}

void TestErrorMapping::displayString_data()
{
    QTest::addColumn<ApiError>("error");
    QTest::addColumn<QString>("text");
    ApiError notFound = lizard::client::mapHttpError(
        404, R"({"error":"NOT_FOUND","message":"sandbox sb_x not found"})", {},
        QStringLiteral("Create sandbox"));
    QTest::newRow("http") << notFound
                          << "Create sandbox failed: 404 NOT_FOUND: sandbox sb_x not found";
    QTest::newRow("no code") << lizard::client::mapHttpError(500, "boom", {},
                                                             QStringLiteral("List projects"))
                             << "List projects failed: 500 boom";
    QTest::newRow("network") << lizard::client::mapTransportError(CURLE_COULDNT_CONNECT,
                                                                  "Connection refused",
                                                                  QStringLiteral("List projects"))
                             << "List projects failed: network error: Connection refused";
    QTest::newRow("certificate") << lizard::client::mapTransportError(
                                        CURLE_PEER_FAILED_VERIFICATION,
                                        "SSL certificate problem: self-signed certificate",
                                        QStringLiteral("Connecting"))
                                 << "Connecting failed: The server's certificate is not trusted "
                                    "(self-signed certificate). If your "
                                    "organisation uses its own certificate authority, choose its "
                                    "certificate in Connections.";
    QTest::newRow("cancelled") << lizard::client::cancelledError(QStringLiteral("Read file"))
                               << "Read file was cancelled";
    QTest::newRow("rate limit") << lizard::client::mapHttpError(
                                       429,
                                       R"({"error":"LIMIT","message":"5 running","retryAfterS":9})",
                                       {}, QStringLiteral("Create sandbox"))
                                << "Create sandbox failed: 429 LIMIT: 5 running (retry in 9 s)";
    QTest::newRow("no what") << lizard::client::mapHttpError(401, R"({"message":"bad key"})", {},
                                                             {})
                             << "Failed: 401 bad key";
}

void TestErrorMapping::displayString()
{
    QFETCH(ApiError, error);
    QFETCH(QString, text);
    QCOMPARE(error.toDisplayString(), text);
}

QTEST_GUILESS_MAIN(TestErrorMapping)
#include "tst_errormapping.moc"
