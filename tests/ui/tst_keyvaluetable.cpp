// KeyValueTable: rows become a map; bad rows are named in the error.
#include "ui/keyvaluetable.h"

#include <QTableWidget>
#include <QTest>

using lizard::ui::KeyValueTable;
using Rows = QList<QPair<QString, QString>>;
using Map = QMap<QString, QString>;

class TestKeyValueTable : public QObject
{
    Q_OBJECT
private slots:
    void values_data()
    {
        QTest::addColumn<Rows>("rows");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<Map>("expected");
        QTest::addColumn<QString>("errorPart");
        QTest::newRow("empty") << Rows{} << true << Map{} << QString();
        QTest::newRow("two") << Rows{{"A", "1"}, {"B", "x y"}} << true
                             << Map{{"A", "1"}, {"B", "x y"}} << QString();
        QTest::newRow("blank rows ignored")
            << Rows{{"", ""}, {"A", ""}} << true << Map{{"A", ""}} << QString();
        QTest::newRow("key trimmed") << Rows{{"  A ", "v"}} << true << Map{{"A", "v"}} << QString();
        QTest::newRow("value without key")
            << Rows{{"A", "1"}, {"", "2"}} << false << Map{} << QString("row 2");
        QTest::newRow("duplicate")
            << Rows{{"A", "1"}, {"A", "2"}} << false << Map{} << QString("\"A\" appears twice");
    }
    void values()
    {
        QFETCH(Rows, rows);
        QFETCH(bool, ok);
        QFETCH(Map, expected);
        QFETCH(QString, errorPart);
        KeyValueTable table("Variable");
        for (const auto& r : rows)
            table.addRow(r.first, r.second);
        Map out;
        QString error;
        QCOMPARE(table.values(&out, &error), ok);
        if (ok)
            QCOMPARE(out, expected);
        else
            QVERIFY2(error.contains(errorPart) && error.startsWith("Variable"), qPrintable(error));
    }

    void setValuesRoundTrip()
    {
        KeyValueTable table("Label");
        const Map in{{"team", "core"}, {"purpose", "demo"}};
        table.setValues(in);
        QCOMPARE(table.table()->rowCount(), 2);
        Map out;
        QString error;
        QVERIFY(table.values(&out, &error));
        QCOMPARE(out, in);
    }
};

QTEST_MAIN(TestKeyValueTable)
#include "tst_keyvaluetable.moc"
