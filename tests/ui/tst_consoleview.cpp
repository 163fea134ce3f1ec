// ConsoleView: batched appends, stderr tint, bounded lines, markers.
#include "ui/consoleview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTest>
#include <QTextBlock>

using lizard::client::OutputLine;
using lizard::client::OutputStream;
using lizard::ui::ConsoleView;

class TestConsoleView : public QObject
{
    Q_OBJECT
private slots:
    void linesArriveInOrderAfterOneFlush()
    {
        ConsoleView view;
        view.enqueue({{OutputStream::Stdout, "one"}, {OutputStream::Stdout, "two"}});
        view.enqueue({{OutputStream::Stderr, "bad"}, {OutputStream::Stdout, "three"}});
        QCOMPARE(view.toPlainText(), QString()); // coalesced: nothing until the flush timer
        QCOMPARE(view.pendingLines(), 4);
        QTRY_COMPARE(view.pendingLines(), 0);
        QCOMPARE(view.toPlainText(), QString("one\ntwo\nbad\nthree"));
        QCOMPARE(view.document()->blockCount(), 4);
    }

    void stderrIsTinted()
    {
        ConsoleView view;
        view.enqueue({{OutputStream::Stdout, "out"},
                      {OutputStream::Stderr, "err"},
                      {OutputStream::Stdout, "out2"}});
        view.flushNow();
        const QTextBlock out = view.document()->findBlockByNumber(0);
        const QTextBlock err = view.document()->findBlockByNumber(1);
        const QTextBlock out2 = view.document()->findBlockByNumber(2);
        QCOMPARE(err.text(), QString("err"));
        const QColor errColor = err.begin().fragment().charFormat().foreground().color();
        const QColor outColor = out.begin().fragment().charFormat().foreground().color();
        QVERIFY(err.begin().fragment().charFormat().hasProperty(QTextFormat::ForegroundBrush));
        QVERIFY(!out.begin().fragment().charFormat().hasProperty(QTextFormat::ForegroundBrush));
        QVERIFY(!out2.begin().fragment().charFormat().hasProperty(QTextFormat::ForegroundBrush));
        QVERIFY(errColor != outColor);
        QVERIFY(errColor.red() > errColor.green());
    }

    void holdsABoundedNumberOfLines_data()
    {
        QTest::addColumn<int>("maxLines");
        QTest::addColumn<int>("total");
        QTest::addColumn<int>("batch");
        QTest::newRow("under the limit") << 100 << 50 << 7;
        QTest::newRow("over in small batches") << 100 << 1000 << 7;
        QTest::newRow("over in one batch") << 100 << 1000 << 1000;
        QTest::newRow("100k lines") << 5000 << 100000 << 350;
    }
    void holdsABoundedNumberOfLines()
    {
        QFETCH(int, maxLines);
        QFETCH(int, total);
        QFETCH(int, batch);
        ConsoleView view;
        view.setMaximumLines(maxLines);
        int next = 0;
        while (next < total) {
            QList<OutputLine> lines;
            for (int i = 0; i < batch && next < total; ++i)
                lines.append({OutputStream::Stdout, QString::number(next++)});
            view.enqueue(lines);
            if (next % (batch * 10) == 0)
                QCoreApplication::processEvents();
        }
        view.flushNow();
        QVERIFY(view.document()->blockCount() <= maxLines);
        QCOMPARE(view.document()->lastBlock().text(), QString::number(total - 1));
        const int shown = qMin(total, maxLines);
        QCOMPARE(view.document()->firstBlock().text(),
                 QString::number(total - view.document()->blockCount()));
        QVERIFY(view.document()->blockCount() >= shown - 1);
    }

    void markersFlushPendingOutputFirst()
    {
        ConsoleView view;
        view.appendMarker(ConsoleView::Marker::Command, "$ ls");
        view.enqueue({{OutputStream::Stdout, "bin"}});
        view.appendMarker(ConsoleView::Marker::ExitOk, "[exit 0]");
        QCOMPARE(view.toPlainText(), QString("$ ls\nbin\n[exit 0]"));
    }
};

QTEST_MAIN(TestConsoleView)
#include "tst_consoleview.moc"
