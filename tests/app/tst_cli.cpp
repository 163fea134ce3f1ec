// --version and --help of both programs: they answer without a display (lizard-desktop does not
// create its QApplication for them), on stdout, with status 0; a bad lizard-local option is 2.
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestCli : public QObject
{
    Q_OBJECT

    struct Run
    {
        int status = -1;
        QString out;
        QString err;
    };

    static Run run(const QString& program, const QStringList& args)
    {
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        // No display at all: a QApplication would abort here.
        for (const char* name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
            env.remove(name);
        env.insert("QT_QPA_PLATFORM", "xcb");
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(LIZARD_BIN_DIR "/") + program, args);
        if (!p.waitForFinished(15000))
            return {};
        return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
                QString::fromUtf8(p.readAllStandardOutput()),
                QString::fromUtf8(p.readAllStandardError())};
    }

private slots:
    void versions_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("option");
        QTest::newRow("lizard-desktop --version") << "lizard-desktop"
                                                  << "--version";
        QTest::newRow("lizard-desktop -v") << "lizard-desktop"
                                           << "-v";
        QTest::newRow("lizard-local --version") << "lizard-local"
                                                << "--version";
    }
    void versions()
    {
        QFETCH(QString, program);
        QFETCH(QString, option);
        const Run r = run(program, {option});
        QCOMPARE(r.status, 0);
        QCOMPARE(r.out, program + " " + LIZARD_PROJECT_VERSION + "\n");
    }

    void helps_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("option");
        for (const char* program : {"lizard-desktop", "lizard-local"})
            for (const char* option : {"--help", "-h"})
                QTest::newRow(qPrintable(QString("%1 %2").arg(program, option)))
                    << program << option;
    }
    void helps()
    {
        QFETCH(QString, program);
        QFETCH(QString, option);
        const Run r = run(program, {option});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.startsWith("usage: " + program), qPrintable(r.out));
        QVERIFY2(r.out.contains("--version") && r.out.contains("--help"), qPrintable(r.out));
    }

    void badServerOptionIsExplained_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("said");
        QTest::newRow("unknown") << QStringList{"--no-such-option"}
                                 << "unknown argument: --no-such-option";
        QTest::newRow("abbreviated") << QStringList{"--max", "3"} << "unknown argument: --max";
        QTest::newRow("no value") << QStringList{"--port"}
                                  << "--port needs a number from 0 to 65535";
        QTest::newRow("out of range")
            << QStringList{"--port", "70000"} << "--port needs a number from 0 to 65535";
        QTest::newRow("with =, not a number")
            << QStringList{"--max-running=many"} << "--max-running needs a number from 1 to 100000";
        QTest::newRow("twice") << QStringList{"--port", "1", "--port", "2"}
                               << "was given more than once";
        QTest::newRow("a word") << QStringList{"serve"} << "unknown argument";
        QTest::newRow("same ports") << QStringList{"--port=9000", "--proxy-port=9000"}
                                    << "--proxy-port must differ from --port";
    }
    void badServerOptionIsExplained()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, said);
        const Run r = run("lizard-local", args);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(said) && r.err.contains("usage:"), qPrintable(r.err));
    }

    // --option=VALUE as well as --option VALUE: a good command line gets past the options (to
    // --version, which answers before anything binds a port).
    void serverOptionsWithEquals()
    {
        const QTemporaryDir dir;
        const Run r = run("lizard-local", {"--port=0", "--data-dir=" + dir.path(),
                                           "--max-running=3", "--no-activity", "--version"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.startsWith("lizard-local "), qPrintable(r.out + r.err));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
