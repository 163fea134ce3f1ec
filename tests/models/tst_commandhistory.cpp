// CommandHistory: shell-like Up/Down navigation.
#include "models/commandhistory.h"

#include <QTest>

using lizard::models::CommandHistory;

class TestCommandHistory : public QObject
{
    Q_OBJECT
private slots:
    void navigation_data()
    {
        QTest::addColumn<QStringList>("added");
        QTest::addColumn<QString>("keys"); // U = up, D = down
        QTest::addColumn<QStringList>("shown");
        QTest::newRow("empty history keeps the typed line")
            << QStringList{} << "UD" << QStringList{"typed", "typed"};
        QTest::newRow("up walks back and stops at the oldest")
            << QStringList{"a", "b", "c"} << "UUUU" << QStringList{"c", "b", "a", "a"};
        QTest::newRow("down returns to the typed line")
            << QStringList{"a", "b"} << "UUDD" << QStringList{"b", "a", "b", "typed"};
        QTest::newRow("down without browsing keeps the line")
            << QStringList{"a"} << "DU" << QStringList{"typed", "a"};
        QTest::newRow("consecutive duplicates stored once")
            << QStringList{"ls", "ls", "pwd", "ls"} << "UUUU"
            << QStringList{"ls", "pwd", "ls", "ls"};
        QTest::newRow("blank commands are not stored")
            << QStringList{"a", "  ", ""} << "UU" << QStringList{"a", "a"};
    }
    void navigation()
    {
        QFETCH(QStringList, added);
        QFETCH(QString, keys);
        QFETCH(QStringList, shown);
        CommandHistory history;
        for (const QString& c : added)
            history.add(c);
        QStringList result;
        for (QChar k : keys)
            result << (k == 'U' ? history.previous("typed") : history.next("typed"));
        QCOMPARE(result, shown);
    }

    void bounded()
    {
        CommandHistory history(3);
        for (int i = 0; i < 10; ++i)
            history.add(QString::number(i));
        QCOMPARE(history.entries(), (QStringList{"7", "8", "9"}));
    }

    void addEndsBrowsing()
    {
        CommandHistory history;
        history.add("a");
        history.add("b");
        QCOMPARE(history.previous(""), "b");
        QVERIFY(history.browsing());
        history.add("c");
        QVERIFY(!history.browsing());
        QCOMPARE(history.previous(""), "c");
    }
};

QTEST_GUILESS_MAIN(TestCommandHistory)
#include "tst_commandhistory.moc"
