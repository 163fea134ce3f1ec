// The JSON body readers (api/jsonbody, api/volumerequest) on the inputs the fuzzer in
// fuzz/json_body.cpp found wrong: numbers beyond int64's range.
#include "api/jsonbody.h"
#include "api/volumerequest.h"
#include "http/responses.h"

#include <QTest>

using namespace lizard;

class TestJsonBody : public QObject
{
    Q_OBJECT

private slots:
    void optIntRejectsUnsignedBeyondInt64()
    {
        // 2^64 - 1000 was read as -1000 ("timeoutMs must be from 1000 …, got -1000").
        const auto body = nlohmann::json::parse(R"({"timeoutMs":18446744073709550616})");
        const auto r = api::Fields(body).optInt("timeoutMs");
        QVERIFY(!r);
        QCOMPARE(lizard::http::httpStatus(r.error().kind), 400);
        QCOMPARE(QString::fromStdString(r.error().code), QString("INVALID_ARGUMENT"));
        QVERIFY(r.error().message.find("out of range") != std::string::npos);
    }

    void optIntReadsLargeUnsignedAndNegative() // the harmless neighbours still read as before
    {
        const auto body =
            nlohmann::json::parse(R"({"a":9223372036854775807,"b":-5,"c":3000.0,"d":1.5})");
        const api::Fields f(body);
        QCOMPARE(**f.optInt("a"), INT64_MAX);
        QCOMPARE(**f.optInt("b"), int64_t(-5));
        QCOMPARE(**f.optInt("c"), int64_t(3000));
        QVERIFY(!f.optInt("d"));
    }

    void volumeSizeOfHugeWholeNumberIsTooLarge()
    {
        // A double beyond int64 was cast to int64 (undefined; on x86 it gave INT64_MIN, so
        // "not a whole number") instead of "too large".
        for (const char* text : {R"({"sizeGb":59223372036854775808})", R"({"sizeGb":1e300})"}) {
            nlohmann::json extra = nlohmann::json::object();
            const auto r = api::volumeSize(nlohmann::json::parse(text), 5, extra);
            QVERIFY2(!r, text);
            QCOMPARE(QString::fromStdString(r.error().code), QString("VOLUME_TOO_LARGE"));
            QCOMPARE(QString::fromStdString(extra.value("code", "")), QString("volume_too_large"));
        }
    }

    void volumeSizeAcceptsWholeAndRejectsFractions()
    {
        nlohmann::json extra = nlohmann::json::object();
        QCOMPARE(*api::volumeSize(nlohmann::json::parse(R"({"sizeGb":7.0})"), 5, extra), 7);
        QCOMPARE(*api::volumeSize(nlohmann::json::parse(R"({})"), 5, extra), 5);
        const auto half = api::volumeSize(nlohmann::json::parse(R"({"sizeGb":2.5})"), 5, extra);
        QVERIFY(!half);
        QCOMPARE(QString::fromStdString(half.error().code), QString("INVALID_VOLUME_SIZE"));
    }
};

QTEST_GUILESS_MAIN(TestJsonBody)
#include "tst_api_jsonbody.moc"
