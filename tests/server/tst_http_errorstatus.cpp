// The one mapping from an error's kind to its HTTP status (http/responses.h), and the JSON
// error shape both kinds of error answers share. Clients and the official SDK read these
// statuses, so each kind's number is pinned here.
#include "http/responses.h"

#include <QTest>

using namespace lizard;

class TestHttpErrorStatus : public QObject
{
    Q_OBJECT

private slots:
    void statusOfEachKind_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("status");
        QTest::newRow("Internal") << int(ErrorKind::Internal) << 500;
        QTest::newRow("InvalidArgument") << int(ErrorKind::InvalidArgument) << 400;
        QTest::newRow("Unauthenticated") << int(ErrorKind::Unauthenticated) << 401;
        QTest::newRow("Forbidden") << int(ErrorKind::Forbidden) << 403;
        QTest::newRow("NotFound") << int(ErrorKind::NotFound) << 404;
        QTest::newRow("Conflict") << int(ErrorKind::Conflict) << 409;
        QTest::newRow("LimitReached") << int(ErrorKind::LimitReached) << 429;
        QTest::newRow("NotImplemented") << int(ErrorKind::NotImplemented) << 501;
        QTest::newRow("Unreachable") << int(ErrorKind::Unreachable) << 502;
        QTest::newRow("Unavailable") << int(ErrorKind::Unavailable) << 503;
        QTest::newRow("Timeout") << int(ErrorKind::Timeout) << 504;
        QTest::newRow("InsufficientStorage") << int(ErrorKind::InsufficientStorage) << 507;
    }
    void statusOfEachKind()
    {
        QFETCH(int, kind);
        QFETCH(int, status);
        QCOMPARE(http::httpStatus(ErrorKind(kind)), status);
        const auto res = http::errorResponse(Error{ErrorKind(kind), "SOME_CODE", "what happened"});
        QCOMPARE(int(res.result_int()), status);
    }

    void anErrorIsInternalUnlessSaidOtherwise()
    {
        QCOMPARE(http::errorResponse(Error{}).result_int(), 500u);
    }

    void bodyCarriesCodeTwiceAndExtraFields()
    {
        const auto res = http::errorResponse(
            Error{ErrorKind::LimitReached, "LIMIT_EXCEEDED", "too many"}, {{"limit", 3}});
        QCOMPARE(QString::fromStdString(res.body()),
                 QString(R"({"code":"LIMIT_EXCEEDED","error":"LIMIT_EXCEEDED","limit":3,)"
                         R"("message":"too many"})"));
        QCOMPARE(QString::fromStdString(std::string(res[http::bhttp::field::content_type])),
                 QString("application/json"));
    }

    void httpFailuresKeepTheirOwnStatus()
    {
        const auto res = http::errorResponse(http::bhttp::status::request_header_fields_too_large,
                                             "HEADERS_TOO_LARGE", "too large");
        QCOMPARE(res.result_int(), 431u);
        QCOMPARE(QString::fromStdString(res.body()),
                 QString(R"({"code":"HEADERS_TOO_LARGE","error":"HEADERS_TOO_LARGE",)"
                         R"("message":"too large"})"));
    }
};

QTEST_GUILESS_MAIN(TestHttpErrorStatus)
#include "tst_http_errorstatus.moc"
