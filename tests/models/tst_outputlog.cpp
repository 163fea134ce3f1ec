// OutputLog: the full console output in a temp file; saveTo copies it.
#include "models/outputlog.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using lizard::client::OutputLine;
using lizard::client::OutputStream;
using lizard::models::OutputLog;

class TestOutputLog : public QObject
{
    Q_OBJECT
private slots:
    void keepsEverythingAndSaves()
    {
        OutputLog log;
        QList<OutputLine> batch;
        for (int i = 0; i < 100000; ++i)
            batch.append(
                {i % 10 == 0 ? OutputStream::Stderr : OutputStream::Stdout, QString::number(i)});
        QVERIFY(log.appendText("$ seq"));
        QVERIFY(log.append(batch));
        QCOMPARE(log.lineCount(), qint64(100001));
        QTemporaryDir dir;
        const QString path = dir.filePath("out.txt");
        QVERIFY2(log.saveTo(path), qPrintable(log.errorString()));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines.size(), 100002); // trailing newline
        QCOMPARE(lines.first(), QByteArray("$ seq"));
        QCOMPARE(lines.at(100000), QByteArray("99999"));
    }

    void unicodeRoundTrip()
    {
        OutputLog log;
        QVERIFY(log.append({{OutputStream::Stdout, QStringLiteral("héllo 🦎")}}));
        QTemporaryDir dir;
        QVERIFY(log.saveTo(dir.filePath("u.txt")));
        QFile f(dir.filePath("u.txt"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(f.readAll()), QStringLiteral("héllo 🦎\n"));
    }

    void saveToBadPathFailsWithMessage()
    {
        OutputLog log;
        QVERIFY(log.appendText("x"));
        QVERIFY(!log.saveTo("/nonexistent-dir/sub/out.txt"));
        QVERIFY(log.errorString().contains("/nonexistent-dir/sub/out.txt"));
    }
};

QTEST_GUILESS_MAIN(TestOutputLog)
#include "tst_outputlog.moc"
