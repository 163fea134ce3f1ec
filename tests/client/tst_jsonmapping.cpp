// JSON ↔ types: tolerant of absent fields, strict about wrong types, the SDK's request bodies.

#include "client/jsonmapping.h"

#include <QTest>
#include <nlohmann/json.hpp>

using namespace lizard::client;
using Json = nlohmann::json;

// nlohmann::json is ambiguous for QCOMPARE; compare the canonical text (keys are sorted).
#define QCOMPARE_JSON(actual, expected)                                                            \
    QCOMPARE(QString::fromStdString((actual).dump()), QString::fromStdString((expected).dump()))

namespace {
Json parsed(const QByteArray& body)
{
    return Json::parse(body.toStdString());
}
} // namespace

class TestJsonMapping : public QObject
{
    Q_OBJECT
private slots:
    void sandboxFull();
    void sandboxMinimalAndIdAlias();
    void wrongTypesAreProtocolErrors_data();
    void wrongTypesAreProtocolErrors();
    void projectsAndTimes();
    void fileEntries();
    void processesAndExec();
    void whoAmI();
    void createSandboxBody();
    void execBodies();
    void writeFileBody_data();
    void writeFileBody();
    void writeFileTextOrBase64_data();
    void writeFileTextOrBase64();
    void activityEntriesAreTyped();
    void badActivityEntriesAreSkipped();
};

void TestJsonMapping::sandboxFull()
{
    const auto s = parseSandbox(R"({"sandboxId":"sb_1","template":"base","projectId":"p1",
        "startedAt":"2026-01-02T03:04:05.678Z","endAt":"2026-01-02T03:09:05Z","status":"running",
        "size":"small","region":"local","pauseError":null,"cpus":2,"memoryMb":4096,
        "internetAccess":false,"allowedHosts":["pypi.org","10.0.0.0/8"],"metadata":{"a":"b"},
        "runtime":"container","unknown":[1,2]})");
    QVERIFY(s.ok());
    const SandboxInfo& v = s.value();
    QCOMPARE(v.sandboxId, QStringLiteral("sb_1"));
    QCOMPARE(v.templateName, QStringLiteral("base"));
    QCOMPARE(v.startedAt, QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5, 678), Qt::UTC));
    QCOMPARE(v.startedAt.msecsTo(v.endAt), qint64(300000 - 678));
    QCOMPARE(v.status, QStringLiteral("running"));
    QCOMPARE(v.cpus, 2.0);
    QCOMPARE(v.memoryMb, 4096);
    QCOMPARE(v.internetAccess, false);
    QCOMPARE(v.allowedHosts, QStringList({"pypi.org", "10.0.0.0/8"}));
    QVERIFY(!v.pauseError.has_value());
    QCOMPARE(v.metadata.value("a"), QStringLiteral("b"));
}

void TestJsonMapping::sandboxMinimalAndIdAlias()
{
    const auto s = parseSandbox(R"({"id":"sb_2","endAt":null,"pauseError":"disk full"})");
    QVERIFY(s.ok());
    QCOMPARE(s.value().sandboxId, QStringLiteral("sb_2"));
    QVERIFY(!s.value().endAt.isValid());
    QVERIFY(s.value().internetAccess);
    QCOMPARE(s.value().pauseError.value_or(QString()), QStringLiteral("disk full"));
}

void TestJsonMapping::wrongTypesAreProtocolErrors_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::newRow("not JSON") << QByteArray("<html>");
    QTest::newRow("array, not object") << QByteArray("[]");
    QTest::newRow("missing id") << QByteArray(R"({"template":"base"})");
    QTest::newRow("id is a number") << QByteArray(R"({"sandboxId":5})");
    QTest::newRow("cpus is text") << QByteArray(R"({"sandboxId":"s","cpus":"2"})");
    QTest::newRow("bad time text") << QByteArray(R"({"sandboxId":"s","startedAt":"yesterday"})");
    QTest::newRow("metadata value not text")
        << QByteArray(R"({"sandboxId":"s","metadata":{"a":1}})");
    QTest::newRow("internetAccess not bool")
        << QByteArray(R"({"sandboxId":"s","internetAccess":"no"})");
    QTest::newRow("memoryMb fractional") << QByteArray(R"({"sandboxId":"s","memoryMb":1.5})");
}

void TestJsonMapping::wrongTypesAreProtocolErrors()
{
    QFETCH(QByteArray, body);
    const auto s = parseSandbox(body, QStringLiteral("Get sandbox"));
    QVERIFY(!s.ok());
    QCOMPARE(s.error().kind, ApiError::Kind::Protocol);
    QCOMPARE(s.error().what, QStringLiteral("Get sandbox"));
    QVERIFY(!s.error().message.isEmpty());
}

void TestJsonMapping::projectsAndTimes()
{
    const auto p = parseProjects(R"([{"id":"p1","name":"One","slug":"one","workspaceId":"w",
        "createdAt":"2026-03-04T05:06:07+02:00"},{"id":"p2","createdAt":1700000000123}])");
    QVERIFY(p.ok());
    QCOMPARE(p.value().size(), 2);
    QCOMPARE(p.value()[0].createdAt, QDateTime(QDate(2026, 3, 4), QTime(3, 6, 7), Qt::UTC));
    QCOMPARE(p.value()[1].createdAt.toMSecsSinceEpoch(), qint64(1700000000123));
    QVERIFY(p.value()[1].name.isEmpty());
    QVERIFY(!parseProjects(R"({"id":"p1"})").ok());
    QVERIFY(!parseProjects(R"([{"id":"p1"}, 7])").ok());
}

void TestJsonMapping::fileEntries()
{
    const auto f =
        parseFileEntries(R"([{"name":"a.txt","path":"/w/a.txt","type":"file","size":12,"mode":420,
        "permissions":"-rw-r--r--","owner":"root","group":"root","modTime":1700000000000},
        {"path":"/w/d","type":"dir","size":4096,"mode":"0755","modifiedAt":"2026-01-01T00:00:00Z"},
        {"name":"l","path":"/w/l","type":"symlink","size":1,"symlinkTarget":"a.txt"}])");
    QVERIFY(f.ok());
    QCOMPARE(f.value()[0].mode, QStringLiteral("0644"));
    QCOMPARE(f.value()[0].modifiedAt.toMSecsSinceEpoch(), qint64(1700000000000));
    QCOMPARE(f.value()[1].name, QStringLiteral("d"));
    QCOMPARE(f.value()[1].mode, QStringLiteral("0755"));
    QVERIFY(f.value()[1].modifiedAt.isValid());
    QCOMPARE(f.value()[2].symlinkTarget, QStringLiteral("a.txt"));
    QVERIFY(!parseFileEntry(R"({"path":"/x","size":"big"})").ok());
}

void TestJsonMapping::processesAndExec()
{
    const auto p = parseProcesses(
        R"([{"pid":7,"cmd":["/bin/sh","-c","sleep 9"],"cwd":null,"startedAt":1700000000000}])");
    QVERIFY(p.ok());
    QCOMPARE(p.value()[0].pid, 7);
    QCOMPARE(p.value()[0].command, QStringLiteral("/bin/sh -c sleep 9"));
    QVERIFY(!parseProcesses(R"([{"cmd":[]}])").ok());
    QVERIFY(!parseProcesses(R"([{"pid":1,"cmd":[1]}])").ok());

    const auto e =
        parseExecResult(R"({"stdout":"hi\n","stderr":"","exitCode":3,"truncated":true})");
    QVERIFY(e.ok());
    QCOMPARE(e.value().stdoutText, QStringLiteral("hi\n"));
    QCOMPARE(e.value().exitCode, 3);
    QVERIFY(e.value().truncated);
    QVERIFY(!parseExecResult(R"({"stdout":"x"})").ok());
}

void TestJsonMapping::whoAmI()
{
    const auto w = parseWhoAmI(R"({"id":"u1","username":"liz","email":null})");
    QVERIFY(w.ok());
    QCOMPARE(w.value().name, QStringLiteral("liz"));
    QVERIFY(w.value().email.isEmpty());
    QVERIFY(parseWhoAmI(R"({"scoped":true,"scopes":[]})").ok());
}

void TestJsonMapping::createSandboxBody()
{
    CreateSandboxRequest r;
    r.projectId = QStringLiteral("p1");
    Json j = parsed(lizard::client::createSandboxBody(r));
    QCOMPARE_JSON(j, Json::parse(R"({"template":"base","projectId":"p1","timeoutMs":300000})"));
    r.size = QStringLiteral("nano");
    r.timeoutMs = 0;
    r.metadata.insert(QStringLiteral("k"), QStringLiteral("v"));
    r.envs.insert(QStringLiteral("A"), QString::fromUtf8("é"));
    r.internetAccess = false;
    j = parsed(lizard::client::createSandboxBody(r));
    QCOMPARE_JSON(j, Json::parse(R"({"template":"base","projectId":"p1","timeoutMs":0,"size":"nano",
        "metadata":{"k":"v"},"envs":{"A":"é"},"internetAccess":false})"));
    // An allow-list implies no other network: internetAccess is not sent with it.
    r.allowedHosts = QStringList{"pypi.org", "*.pythonhosted.org"};
    j = parsed(lizard::client::createSandboxBody(r));
    QCOMPARE_JSON(j, Json::parse(R"({"template":"base","projectId":"p1","timeoutMs":0,"size":"nano",
        "metadata":{"k":"v"},"envs":{"A":"é"},"allowedHosts":["pypi.org","*.pythonhosted.org"]})"));
}

void TestJsonMapping::execBodies()
{
    ExecOptions o;
    Json j = parsed(execBody(QStringLiteral("echo hi"), {}, false, o, false));
    QCOMPARE_JSON(j, Json::parse(R"({"cmd":"echo hi","timeoutMs":60000})"));
    o.envs.insert(QStringLiteral("X"), QStringLiteral("1"));
    o.user = QStringLiteral("user");
    o.workdir = QStringLiteral("/tmp");
    j = parsed(execBody(
        {}, {QStringLiteral("printf"), QStringLiteral("%s"), QStringLiteral("$(rm -rf /)")}, true,
        o, true));
    QCOMPARE_JSON(
        j, Json::parse(R"j({"cmd":["printf","%s","$(rm -rf /)"],"envs":{"X":"1"},"user":"user",
        "workdir":"/tmp","timeoutMs":60000,"pidEvent":true})j"));
    QCOMPARE_JSON(parsed(signalBody(5, {})), Json::parse(R"({"pid":5,"signal":"SIGTERM"})"));
    QCOMPARE_JSON(parsed(moveBody("/a", "/b c")), Json::parse(R"({"from":"/a","to":"/b c"})"));
}

void TestJsonMapping::writeFileBody_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("base64");
    QTest::newRow("ascii") << QByteArray("hello\n") << false;
    QTest::newRow("utf-8") << QByteArray("caf\xC3\xA9 \xF0\x9F\xA6\x8E") << false;
    QTest::newRow("empty") << QByteArray() << false;
    QTest::newRow("NUL") << QByteArray("a\0b", 3) << true;
    QTest::newRow("latin-1") << QByteArray("caf\xE9") << true;
    QTest::newRow("png header") << QByteArray("\x89PNG\r\n\x1a\n", 8) << true;
}

void TestJsonMapping::writeFileBody()
{
    QFETCH(QByteArray, content);
    QFETCH(bool, base64);
    const Json j = parsed(lizard::client::writeFileBody(QStringLiteral("/w/f"), content));
    QCOMPARE(QString::fromStdString(j["path"].get<std::string>()), QStringLiteral("/w/f"));
    const QByteArray sent = QByteArray::fromStdString(j["content"].get<std::string>());
    if (base64) {
        QCOMPARE_JSON(j["encoding"], Json("base64"));
        QCOMPARE(QByteArray::fromBase64(sent), content);
    } else {
        QVERIFY(!j.contains("encoding"));
        QCOMPARE(sent, content);
    }
}

void TestJsonMapping::writeFileTextOrBase64_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<bool>("valid");
    QTest::newRow("ascii") << QByteArray("abc") << true;
    QTest::newRow("2,3,4 bytes") << QByteArray("\xC3\xA9\xE2\x82\xAC\xF0\x9F\xA6\x8E") << true;
    QTest::newRow("max code point") << QByteArray("\xF4\x8F\xBF\xBF") << true;
    QTest::newRow("truncated") << QByteArray("\xF0\x9F\xA6") << false;
    QTest::newRow("lone continuation") << QByteArray("\x80") << false;
    QTest::newRow("overlong /") << QByteArray("\xC0\xAF") << false;
    QTest::newRow("overlong 3-byte") << QByteArray("\xE0\x80\xAF") << false;
    QTest::newRow("surrogate") << QByteArray("\xED\xA0\x80") << false;
    QTest::newRow("past U+10FFFF") << QByteArray("\xF4\x90\x80\x80") << false;
    QTest::newRow("F8") << QByteArray("\xF8\x88\x80\x80\x80") << false;
}

void TestJsonMapping::writeFileTextOrBase64()
{
    QFETCH(QByteArray, bytes);
    QFETCH(bool, valid);
    // What writeFile sends: the bytes as text when valid, else base64 that decodes to them.
    const auto body = nlohmann::json::parse(
        lizard::client::writeFileBody(QStringLiteral("/f"), bytes).toStdString());
    QCOMPARE(!body.contains("encoding"), valid);
    const QByteArray sent = QByteArray::fromStdString(body["content"].get<std::string>());
    QCOMPARE(valid ? sent : QByteArray::fromBase64(sent), bytes);
}

void TestJsonMapping::activityEntriesAreTyped()
{
    const auto page = parseActivityPage(R"({"entries":[
        {"seq":1,"time":"2026-01-02T03:04:05.678Z","kind":"exec","argv":["ls","-la"],
         "cwd":"/tmp","user":"user","envNames":["A"],"exitCode":2,"durationMs":15,
         "stdoutBytes":70000,"stdoutHead":"a","stdoutTail":"z","stderrHead":"","housekeeping":true},
        {"seq":2,"time":"2026-01-02T03:04:06Z","kind":"runCode","language":"python","code":"1+1",
         "events":[{"type":"stdout","data":"hi\n"},
                   {"type":"result","mime":"text/plain","data":"2","display":false,
                    "execution_count":4,"bundle":{"text/plain":"2"}},
                   {"type":"stdout","data":7},
                   {"type":"error","name":"E","message":"m","traceback":"t"},
                   {"type":"done","execution_count":4}],"eventsTruncated":true},
        {"seq":3,"time":"2026-01-02T03:04:07Z","kind":"fileWrite","path":"/a","size":16},
        {"seq":4,"time":"2026-01-02T03:04:08Z","kind":"create","template":"base","size":"small"}
        ],"lastSeq":4,"more":false})");
    QVERIFY2(page.ok(), qPrintable(page.ok() ? QString() : page.error().message));
    const auto& entries = page.value().entries;
    QCOMPARE(entries.size(), std::size_t(4));
    const ActivityEntry& exec = entries[0];
    QCOMPARE(exec.seq, qint64(1));
    QCOMPARE(exec.time, QString("2026-01-02T03:04:05.678Z"));
    QCOMPARE(exec.kind, QString("exec"));
    QCOMPARE(exec.argv, QStringList({"ls", "-la"}));
    QVERIFY(!exec.command);
    QCOMPARE(exec.exitCode, std::optional<int>(2));
    QCOMPARE(exec.envNames, QStringList{"A"});
    QCOMPARE(exec.stdoutBytes, qint64(70000));
    QCOMPARE(exec.stdoutTail, std::optional<QString>("z"));
    QVERIFY(!exec.stderrTail);
    QVERIFY(exec.housekeeping);
    QCOMPARE(argvJsonText(exec.argv), QString(R"(["ls","-la"])"));
    const ActivityEntry& run = entries[1];
    QCOMPARE(run.code, QString("1+1"));
    QVERIFY(run.eventsTruncated);
    QCOMPARE(run.events.size(), 4); // the event with a number for its text is left out
    QCOMPARE(run.events[0].type, ActivityRunEvent::Type::Stdout);
    QCOMPARE(run.events[0].text, QString("hi\n"));
    QCOMPARE(run.events[1].result.bundle.value("text/plain"), QString("2"));
    QCOMPARE(run.events[1].result.executionCount, std::optional<int>(4));
    QCOMPARE(run.events[2].error.name, QString("E"));
    QCOMPARE(run.events[3].executionCount, std::optional<int>(4));
    QCOMPARE(entries[2].size, qint64(16));
    QCOMPARE(entries[3].sizeName, QString("small"));
    QCOMPARE(entries[3].templateName, QString("base"));
    QCOMPARE(page.value().lastSeq, qint64(4));
}

void TestJsonMapping::badActivityEntriesAreSkipped()
{
    const auto page = parseActivityPage(R"({"entries":[
        {"seq":1,"kind":"pause"}, "text", {"kind":"pause"}, {"seq":-3,"kind":"pause"},
        {"seq":5,"kind":"exec","argv":"ls"}, {"seq":6,"kind":7}, {"seq":7,"kind":"resume"}
        ],"lastSeq":7})");
    QVERIFY(page.ok());
    QCOMPARE(page.value().entries.size(), std::size_t(2));
    QCOMPARE(page.value().entries[0].seq, qint64(1));
    QCOMPARE(page.value().entries[1].kind, QString("resume"));
    QVERIFY(!parseActivityEntry("not json"));
    QVERIFY(!parseActivityEntry(R"({"kind":"pause"})"));
    QCOMPARE(parseActivityEntry(R"({"seq":9,"kind":"kill","reason":"expired"})")->reason,
             QString("expired"));
    QVERIFY(!parseActivityPage(R"({"no":"entries"})").ok());
}

QTEST_GUILESS_MAIN(TestJsonMapping)
#include "tst_jsonmapping.moc"
