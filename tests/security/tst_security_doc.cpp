// docs/SECURITY.md lists every attempt of the escape suite: this keeps the two in step. Each
// test function of tests/security/tst_sec_*.cpp must have its row (`suite::function`), and
// every row must name a function that exists.
#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

class TestSecurityDoc : public QObject
{
    Q_OBJECT

    static QString read(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }

    // "suite::function" for each test function (slots other than init, cleanup and _data).
    static QSet<QString> testFunctions()
    {
        QSet<QString> out;
        const QDir dir(QStringLiteral(LIZARD_SOURCE_DIR "/tests/security"));
        static const QRegularExpression slot(QStringLiteral(R"(^    void (\w+)\(\)\s*$)"),
                                             QRegularExpression::MultilineOption);
        for (const QString& file : dir.entryList({"tst_sec_*.cpp"})) {
            const QString suite = file.chopped(4);
            const QString text = read(dir.filePath(file));
            // The slots section: from "private slots:" to the next access label or class end.
            const int begin = text.indexOf("private slots:");
            int end = text.indexOf(
                QRegularExpression(QStringLiteral("\\n(private|public|protected):|\\n};")),
                begin + 1);
            const QString section = text.mid(begin, end < 0 ? -1 : end - begin);
            for (auto it = slot.globalMatch(section); it.hasNext();) {
                const QString name = it.next().captured(1);
                if (!name.endsWith("_data") && !name.startsWith("init") &&
                    !name.startsWith("cleanup"))
                    out.insert(suite + "::" + name);
            }
        }
        return out;
    }

private slots:
    void everyAttemptHasARowAndEveryRowAnAttempt()
    {
        const QString doc = read(QStringLiteral(LIZARD_SOURCE_DIR "/docs/SECURITY.md"));
        QVERIFY2(!doc.isEmpty(), "docs/SECURITY.md is missing");
        const QSet<QString> tests = testFunctions();
        QVERIFY2(tests.size() >= 10, "found too few escape-suite functions: is the parser broken?");
        for (const QString& t : tests)
            QVERIFY2(doc.contains("`" + t + "`"),
                     qPrintable(t + " has no row in docs/SECURITY.md"));
        static const QRegularExpression row(QStringLiteral(R"(`(tst_sec_\w+::\w+)`)"));
        for (auto it = row.globalMatch(doc); it.hasNext();) {
            const QString named = it.next().captured(1);
            QVERIFY2(tests.contains(named),
                     qPrintable("docs/SECURITY.md names " + named + ", which no suite has"));
        }
    }
};

QTEST_GUILESS_MAIN(TestSecurityDoc)
#include "tst_security_doc.moc"
