// A sandbox's system log on disk (logs/logfile.h, logs/systemlog.h): bounded by rotation,
// the tail across both files, sequence numbers that go on after a restart, long messages cut,
// a line cut by a crash skipped, live listeners in order and told of the end.
#include "logs/logfile.h"
#include "logs/systemlog.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using lizard::logs::LogFile;
using lizard::logs::LogLine;
using lizard::logs::SystemLog;

class TestLogFile : public QObject
{
    Q_OBJECT

private slots:
    void rotationBoundsTheFiles()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString();
        LogFile file(path);
        const std::string message(180, 'x');
        for (uint64_t seq = 1; seq <= 20000; ++seq)
            QVERIFY(file.append({seq, 1796130488068, "info", "agent", message}));
        const qint64 current = QFileInfo(dir.filePath("system.log")).size();
        const qint64 old = QFileInfo(dir.filePath("system.log.1")).size();
        QVERIFY2(current <= qint64(LogFile::kMaxFileBytes), qPrintable(QString::number(current)));
        QVERIFY2(old > 0 && old <= qint64(LogFile::kMaxFileBytes),
                 qPrintable(QString::number(old)));
        qInfo("20000 lines of 180 bytes: %lld + %lld bytes on disk", current, old);
        QCOMPARE(file.lastSeq(), uint64_t(20000));
        const auto tail = file.tail(5000);
        QCOMPARE(tail.size(), size_t(5000));
        for (size_t i = 0; i < tail.size(); ++i)
            QCOMPARE(tail[i].seq, uint64_t(15001 + i)); // oldest first, across both files
        QCOMPARE(tail.back().message, message);
    }

    void longMessagesAreCutAndBrokenLinesSkipped()
    {
        QTemporaryDir dir;
        LogFile file(dir.path().toStdString());
        QVERIFY(file.append({1, 1, "error", "kernel", std::string(10000, 'y')}));
        QFile raw(dir.filePath("system.log"));
        QVERIFY(raw.open(QIODevice::Append));
        raw.write("{\"seq\":2,\"ts\":1,\"lev"); // a crash mid-write
        raw.write("\n");
        raw.close();
        QVERIFY(file.append({3, 2, "info", "agent", "caf\xc3"})); // a cut character
        const auto lines = file.tail(10);
        QCOMPARE(lines.size(), size_t(2));
        QCOMPARE(lines[0].message.size(), LogFile::kMaxMessageBytes);
        QCOMPARE(lines[0].level, std::string("error"));
        QCOMPARE(lines[1].seq, uint64_t(3));
        QCOMPARE(lines[1].message, std::string("caf\xef\xbf\xbd"));
    }

    void systemLogListensInOrderAndEnds()
    {
        QTemporaryDir data;
        QVERIFY(QDir(data.path()).mkpath("sandboxes/sb_a"));
        SystemLog log;
        log.setDataDir(data.path().toStdString());
        log.append("sb_a", "info", "lifecycle", "created");
        std::vector<std::string> seen;
        bool ended = false;
        auto sub = log.subscribe("sb_a", 10, [&](const LogLine* l) {
            if (l)
                seen.push_back(std::to_string(l->seq) + " " + l->message);
            else
                ended = true;
        });
        QVERIFY(sub.token != 0);
        QCOMPARE(sub.tail.size(), size_t(1));
        log.append("sb_a", "warn", "agent", "second");
        log.append("sb_a", "info", "lifecycle", "killed");
        QCOMPARE(seen, (std::vector<std::string>{"2 second", "3 killed"}));
        log.end("sb_a");
        QVERIFY(ended);

        // A new SystemLog (lizard-local restarted) goes on after what is on disk.
        SystemLog again;
        again.setDataDir(data.path().toStdString());
        again.append("sb_a", "info", "lifecycle", "resumed");
        QCOMPARE(LogFile(data.filePath("sandboxes/sb_a").toStdString()).lastSeq(), uint64_t(4));
        // A sandbox without a directory has no log to follow.
        QCOMPARE(again.subscribe("sb_gone", 10, [](const LogLine*) {}).token, uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestLogFile)
#include "tst_logfile.moc"
