// "Save as patch…" of the Changes tab (models/changes/unifieddiff.h): the headers of a new, a
// deleted, a binary and an unchanged file, and, for many pairs of texts (no newline at the
// end, bytes that are not UTF-8, edits at both ends, files rewritten past the line diff's
// bound), GNU patch turning the "before" file into the "after" file byte for byte.
#include "models/changes/unifieddiff.h"

#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using lizard::models::changes::unifiedDiff;

namespace {

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<unreadable>");
}

bool writeAll(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(data) == data.size();
}

// Lines from a small alphabet, so that texts share lines and the diff has work to do.
QByteArray randomText(QRandomGenerator& random, int lines)
{
    static const QList<QByteArray> words{"alpha", "beta",    "gamma",    "caf\xe9",
                                         "",      "  x = 1", "\tdelta\r"};
    QByteArray out;
    for (int i = 0; i < lines; ++i)
        out += words[random.bounded(int(words.size()))] + '\n';
    if (!out.isEmpty() && random.bounded(3) == 0)
        out.chop(1); // no newline at the end
    return out;
}

QByteArray edited(QRandomGenerator& random, const QByteArray& text)
{
    QList<QByteArray> lines = text.split('\n');
    const int edits = 1 + random.bounded(6);
    for (int e = 0; e < edits; ++e) {
        const int at = random.bounded(int(lines.size()) + 1);
        switch (random.bounded(3)) {
        case 0:
            lines.insert(at, "inserted " + QByteArray::number(e));
            break;
        case 1:
            if (at < lines.size())
                lines.removeAt(at);
            break;
        default:
            if (at < lines.size())
                lines[at] = "changed " + lines[at];
        }
    }
    return lines.join('\n');
}

} // namespace

class TestUnifiedDiff : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        m_patch = QStandardPaths::findExecutable(QStringLiteral("patch"));
        QVERIFY2(!m_patch.isEmpty(), "GNU patch is needed (Debian package patch)");
    }

    void headersSayWhatHappened()
    {
        const QByteArray added = unifiedDiff("/root/a.txt", std::nullopt, QByteArray("one\ntwo\n"));
        QCOMPARE(added, QByteArray("diff --git a/root/a.txt b/root/a.txt\nnew file mode 100644\n"
                                   "--- /dev/null\n+++ b/root/a.txt\n@@ -0,0 +1,2 @@\n+one\n"
                                   "+two\n"));
        const QByteArray deleted =
            unifiedDiff("/etc/issue", QByteArray("Debian\n"), std::nullopt, 0755);
        QCOMPARE(deleted, QByteArray("diff --git a/etc/issue b/etc/issue\ndeleted file mode "
                                     "100755\n--- a/etc/issue\n+++ /dev/null\n@@ -1 +0,0 @@\n"
                                     "-Debian\n"));
        QCOMPARE(unifiedDiff("/x", QByteArray("a\0b", 3), QByteArray("a")),
                 QByteArray("diff --git a/x b/x\nBinary files a/x and b/x differ\n"));
        QVERIFY(unifiedDiff("/same", QByteArray("a\n"), QByteArray("a\n")).isEmpty());
        const QByteArray noNewline = unifiedDiff("/n", QByteArray("a\nb\n"), QByteArray("a\nb"));
        QVERIFY2(noNewline.endsWith("@@ -1,2 +1,2 @@\n a\n-b\n+b\n\\ No newline at end of file\n"),
                 noNewline.constData());
    }

    // Two changes far apart are two hunks, each with three lines of context.
    void distantChangesAreSeparateHunks()
    {
        QByteArray before, after;
        for (int i = 1; i <= 40; ++i) {
            before += QByteArray::number(i) + '\n';
            after += (i == 5 || i == 30 ? "x" : "") + QByteArray::number(i) + '\n';
        }
        const QByteArray d = unifiedDiff("/f", before, after);
        QVERIFY2(d.contains("@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+x5\n 6\n 7\n 8\n"), d.constData());
        QVERIFY2(d.contains("@@ -27,7 +27,7 @@\n"), d.constData());
        QCOMPARE(d.count("@@ -"), 2);
    }

    void patchReproducesTheAfterFile()
    {
        QRandomGenerator random(20261206);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int round = 0; round < 150; ++round) {
            const QByteArray before = randomText(random, random.bounded(60));
            // Now and then a rewrite past the line diff's bound on edits (4000).
            const QByteArray after =
                round % 50 == 49 ? randomText(random, 9000) : edited(random, before);
            check(dir, before, after, QStringLiteral("round %1").arg(round));
        }
        // A new file and a deleted one.
        check(dir, {}, "fresh\nfile", QStringLiteral("new"), true, false);
        check(dir, "old\n", {}, QStringLiteral("deleted"), false, true);
    }

private:
    void check(const QTemporaryDir& dir, const QByteArray& before, const QByteArray& after,
               const QString& what, bool added = false, bool deleted = false)
    {
        const QString root = dir.filePath(QStringLiteral("tree"));
        QDir(root).removeRecursively();
        QVERIFY(QDir().mkpath(root + "/work"));
        const QString file = root + "/work/file.txt";
        if (!added)
            QVERIFY(writeAll(file, before));
        const QByteArray diff =
            unifiedDiff("/work/file.txt", added ? std::nullopt : std::optional(before),
                        deleted ? std::nullopt : std::optional(after));
        if (before == after && !added && !deleted) {
            QVERIFY(diff.isEmpty());
            return;
        }
        QVERIFY(writeAll(dir.filePath("p.patch"), diff));
        QProcess p;
        p.setWorkingDirectory(root);
        p.setStandardInputFile(dir.filePath("p.patch"));
        p.start(m_patch, {QStringLiteral("-p1"), QStringLiteral("--quiet"),
                          QStringLiteral("--no-backup-if-mismatch")});
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitCode() == 0, qPrintable(what + ": " + QString::fromUtf8(p.readAll()) + "\n" +
                                               QString::fromLatin1(diff.left(2000))));
        if (deleted)
            QVERIFY2(!QFile::exists(file), qPrintable(what));
        else
            QVERIFY2(readAll(file) == after, qPrintable(what + ": differs after the patch\n" +
                                                        QString::fromLatin1(diff.left(2000))));
    }

    QString m_patch;
};

QTEST_GUILESS_MAIN(TestUnifiedDiff)
#include "tst_unifieddiff.moc"
