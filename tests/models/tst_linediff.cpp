// The Changes tab's line diff (models/changes/linediff.h) and tree (changetreemodel.h): rows
// of a side-by-side view for insertions, deletions and replacements, the fallback past the
// edit bound, and the tree's folders, counts and lookups.
#include "models/changes/changetreemodel.h"
#include "models/changes/linediff.h"

#include <QTest>

using namespace lizard::models::changes;

namespace {

// "=a|a" per row: kind letter, the left line, the right line ("" for none).
QString render(const LineDiff& d)
{
    QStringList out;
    for (const DiffRow& r : d.rows) {
        const char kind = r.kind == DiffRow::Same      ? '='
                          : r.kind == DiffRow::Removed ? '-'
                          : r.kind == DiffRow::Added   ? '+'
                                                       : '~';
        out << QStringLiteral("%1%2|%3")
                   .arg(QLatin1Char(kind))
                   .arg(r.left >= 0 ? d.oldLines[r.left] : QString())
                   .arg(r.right >= 0 ? d.newLines[r.right] : QString());
    }
    return out.join(QLatin1Char(' '));
}

} // namespace

class TestLineDiff : public QObject
{
    Q_OBJECT
private slots:
    void rows_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<QString>("rows");
        QTest::addColumn<int>("removed");
        QTest::addColumn<int>("added");
        QTest::newRow("same") << "a\nb\n"
                              << "a\nb\n"
                              << "=a|a =b|b" << 0 << 0;
        QTest::newRow("inserted") << "a\nc\n"
                                  << "a\nb\nc\n"
                                  << "=a|a +|b =c|c" << 0 << 1;
        QTest::newRow("deleted") << "a\nb\nc\n"
                                 << "a\nc\n"
                                 << "=a|a -b| =c|c" << 1 << 0;
        QTest::newRow("replaced") << "a\nb\nc\n"
                                  << "a\nB\nc\n"
                                  << "=a|a ~b|B =c|c" << 1 << 1;
        QTest::newRow("replaced by more") << "a\nb\nz\n"
                                          << "a\nB1\nB2\nz\n"
                                          << "=a|a ~b|B1 +|B2 =z|z" << 1 << 2;
        QTest::newRow("new file") << ""
                                  << "x\ny"
                                  << "+|x +|y" << 0 << 2;
        QTest::newRow("emptied") << "x\n"
                                 << ""
                                 << "-x|" << 1 << 0;
        QTest::newRow("no final newline") << "a\nb"
                                          << "a\nb\n"
                                          << "=a|a =b|b" << 0 << 0;
    }

    void rows()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(QString, rows);
        QFETCH(int, removed);
        QFETCH(int, added);
        const LineDiff d = diffLines(before, after);
        QCOMPARE(render(d), rows);
        QCOMPARE(d.removed, removed);
        QCOMPARE(d.added, added);
        QVERIFY(d.aligned);
    }

    void pastTheBoundTheFileIsReplaced()
    {
        QStringList a, b;
        for (int i = 0; i < 50; ++i) {
            a << QStringLiteral("old %1").arg(i);
            b << QStringLiteral("new %1").arg(i);
        }
        const LineDiff d = diffLines(a.join('\n'), b.join('\n'), 10);
        QVERIFY(!d.aligned);
        QCOMPARE(d.removed, 50);
        QCOMPARE(d.added, 50);
        // Within the bound the same texts are aligned, line against line.
        QVERIFY(diffLines(a.join('\n'), b.join('\n'), 200).aligned);
    }

    void bigFilesWithFewChangesAreQuick()
    {
        QStringList a;
        for (int i = 0; i < 100000; ++i)
            a << QStringLiteral("line %1").arg(i);
        QStringList b = a;
        b[500] = QStringLiteral("changed");
        b.insert(90000, QStringLiteral("inserted"));
        const LineDiff d = diffLines(a.join('\n'), b.join('\n'));
        QVERIFY(d.aligned);
        QCOMPARE(d.removed, 1);
        QCOMPARE(d.added, 2);
    }

    void treeHasFoldersAndCounts()
    {
        lizard::client::SandboxChanges all;
        all.templateName = QStringLiteral("base");
        const auto add = [&](const char* path, const char* kind, const char* type) {
            lizard::client::FileChange c;
            c.path = QString::fromUtf8(path);
            c.kind = QString::fromUtf8(kind);
            c.type = QString::fromUtf8(type);
            all.changes << c;
        };
        add("/etc/issue", "deleted", "file");
        add("/root/app", "added", "dir");
        add("/root/app/main.py", "added", "file");
        add("/etc/hosts", "modified", "file");
        ChangeTreeModel m;
        m.setChanges(all);
        QCOMPARE(m.rowCount(), 2); // etc, root
        const QModelIndex etc = m.indexOf("/etc");
        QVERIFY(etc.isValid());
        QCOMPARE(m.rowCount(etc), 2);
        QCOMPARE(etc.siblingAtColumn(ChangeTreeModel::ChangeColumn).data().toString(),
                 QStringLiteral("2 inside"));
        QCOMPARE(m.indexOf("/root/app").siblingAtColumn(ChangeTreeModel::ChangeColumn).data(),
                 QVariant(QStringLiteral("Added, 1 inside")));
        QCOMPARE(m.indexOf("/root/app/main.py").data(ChangeTreeModel::PathRole).toString(),
                 QStringLiteral("/root/app/main.py"));
        QVERIFY(m.change("/etc") == nullptr);
        QCOMPARE(m.change("/etc/hosts")->kind, QStringLiteral("modified"));
        QCOMPARE(m.count("added"), 2);
        QVERIFY(!m.indexOf("/nope").isValid());
        QCOMPARE(m.parent(m.indexOf("/root/app/main.py")), m.indexOf("/root/app"));
    }
};

QTEST_GUILESS_MAIN(TestLineDiff)
#include "tst_linediff.moc"
