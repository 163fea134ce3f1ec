// The highlighter factory and the built-in highlighters: which token each place of a text gets.
#include "ui/highlight/highlighterfactory.h"
#include "ui/highlight/theme.h"

#include <QSyntaxHighlighter>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextLayout>
#include <QtTest>

using namespace lizard::ui::highlight;

namespace {

constexpr int plain = -1;

// The format the highlighter put at (line, column), or a default format.
QTextCharFormat formatAt(QTextDocument* doc, int line, int column)
{
    const QTextBlock block = doc->findBlockByNumber(line);
    for (const QTextLayout::FormatRange& r : block.layout()->formats()) {
        if (column >= r.start && column < r.start + r.length)
            return r.format;
    }
    return {};
}

} // namespace

class TestHighlighter : public QObject
{
    Q_OBJECT
private slots:
    void factory_data();
    void factory();
    void languageForFileName_data();
    void languageForFileName();
    void tokens_data();
    void tokens();
    void editingReopensState();
};

void TestHighlighter::factory_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<bool>("made");
    QTest::newRow("python") << "python" << true;
    QTest::newRow("Python3 alias") << "Python3" << true;
    QTest::newRow("js") << "js" << true;
    QTest::newRow("javascript") << "javascript" << true;
    QTest::newRow("bash") << "bash" << true;
    QTest::newRow("sh") << "sh" << true;
    QTest::newRow("markdown") << "markdown" << true;
    QTest::newRow("unknown") << "cobol-ish" << false;
    QTest::newRow("empty") << "" << false;
}

void TestHighlighter::factory()
{
    QFETCH(QString, language);
    QFETCH(bool, made);
    QTextDocument doc;
    QSyntaxHighlighter* h = createHighlighter(&doc, language);
    QCOMPARE(h != nullptr, made);
    if (h)
        QCOMPARE(h->document(), &doc); // owned by the document
    QCOMPARE(createHighlighter(nullptr, language), nullptr);
}

void TestHighlighter::languageForFileName_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("language");
    QTest::newRow("py") << "/home/user/work/script.py"
                        << "python";
    QTest::newRow("mjs") << "app.mjs"
                         << "javascript";
    QTest::newRow("js upper") << "APP.JS"
                              << "javascript";
    QTest::newRow("sh") << "run.sh"
                        << "bash";
    QTest::newRow("bashrc") << "/root/.bashrc"
                            << "bash";
    QTest::newRow("md") << "README.md"
                        << "markdown";
    QTest::newRow("unknown") << "data.bin"
                             << "";
    QTest::newRow("no suffix") << "LICENSE"
                               << "";
}

void TestHighlighter::languageForFileName()
{
    QFETCH(QString, path);
    QFETCH(QString, language);
    if (usesKSyntaxHighlighting() && language.isEmpty())
        QSKIP("KSyntaxHighlighting knows more file types than the built-in table");
    QCOMPARE(lizard::ui::highlight::languageForFileName(path), language);
}

void TestHighlighter::tokens_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<int>("token");

    const QString py = "import pandas as pd\n"              // 0
                       "@decorator.x\n"                     // 1
                       "def f(a=0x1F):\n"                   // 2
                       "    s = \"a # not comment\"  # c\n" // 3
                       "    t = '''one\n"                   // 4
                       "two'''\n"                           // 5
                       "    return print(3.5e-2, rb'x')\n"; // 6
    QTest::newRow("py keyword") << "python" << py << 0 << 0 << int(Token::Keyword);
    QTest::newRow("py name plain") << "python" << py << 0 << 8 << plain;
    QTest::newRow("py decorator") << "python" << py << 1 << 5 << int(Token::Decorator);
    QTest::newRow("py def name") << "python" << py << 2 << 4 << int(Token::Definition);
    QTest::newRow("py hex") << "python" << py << 2 << 9 << int(Token::Number);
    QTest::newRow("py hash in string") << "python" << py << 3 << 11 << int(Token::String);
    QTest::newRow("py comment") << "python" << py << 3 << 28 << int(Token::Comment);
    QTest::newRow("py triple open") << "python" << py << 4 << 10 << int(Token::String);
    QTest::newRow("py triple continues") << "python" << py << 5 << 1 << int(Token::String);
    QTest::newRow("py builtin") << "python" << py << 6 << 12 << int(Token::Builtin);
    QTest::newRow("py float exp") << "python" << py << 6 << 20 << int(Token::Number);
    QTest::newRow("py prefixed string") << "python" << py << 6 << 25 << int(Token::String);

    const QString js = "const x = `a\n"                         // 0
                       "b ${y}` // c\n"                         // 1
                       "/* one\n"                               // 2
                       "two */ function g() { return 'q'; }\n"; // 3
    QTest::newRow("js keyword") << "javascript" << js << 0 << 0 << int(Token::Keyword);
    QTest::newRow("js template continues") << "javascript" << js << 1 << 0 << int(Token::String);
    QTest::newRow("js comment after template")
        << "javascript" << js << 1 << 9 << int(Token::Comment);
    QTest::newRow("js block comment continues")
        << "javascript" << js << 3 << 2 << int(Token::Comment);
    QTest::newRow("js after block comment") << "javascript" << js << 3 << 7 << int(Token::Keyword);
    QTest::newRow("js function name") << "javascript" << js << 3 << 16 << int(Token::Definition);
    QTest::newRow("js string") << "javascript" << js << 3 << 30 << int(Token::String);

    const QString sh = "echo \"$HOME\" # x\n" // 0
                       "a=b#c ${PATH}\n"      // 1
                       "if true; then\n";     // 2
    QTest::newRow("sh builtin") << "bash" << sh << 0 << 0 << int(Token::Builtin);
    QTest::newRow("sh string") << "bash" << sh << 0 << 5 << int(Token::String);
    QTest::newRow("sh comment") << "bash" << sh << 0 << 14 << int(Token::Comment);
    QTest::newRow("sh hash inside word") << "bash" << sh << 1 << 3 << plain;
    QTest::newRow("sh braced variable") << "bash" << sh << 1 << 8 << int(Token::Variable);
    QTest::newRow("sh keyword") << "bash" << sh << 2 << 0 << int(Token::Keyword);

    const QString md = "# Title\n"                    // 0
                       "Some *em* and **bold** `c`\n" // 1
                       "```python\n"                  // 2
                       "x = 1\n"                      // 3
                       "```\n"                        // 4
                       "- [link](http://x)\n"         // 5
                       "> quote\n";                   // 6
    QTest::newRow("md heading") << "markdown" << md << 0 << 3 << int(Token::Heading);
    QTest::newRow("md plain") << "markdown" << md << 1 << 1 << plain;
    QTest::newRow("md emphasis") << "markdown" << md << 1 << 6 << int(Token::Emphasis);
    QTest::newRow("md strong") << "markdown" << md << 1 << 16 << int(Token::Strong);
    QTest::newRow("md code") << "markdown" << md << 1 << 24 << int(Token::Code);
    QTest::newRow("md fence body") << "markdown" << md << 3 << 0 << int(Token::Code);
    QTest::newRow("md after fence") << "markdown" << md << 5 << 0 << int(Token::ListMarker);
    QTest::newRow("md link") << "markdown" << md << 5 << 4 << int(Token::Link);
    QTest::newRow("md quote") << "markdown" << md << 6 << 3 << int(Token::Quote);
}

void TestHighlighter::tokens()
{
    if (usesKSyntaxHighlighting())
        QSKIP("these expectations are the built-in highlighter's");
    QFETCH(QString, language);
    QFETCH(QString, text);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(int, token);

    QTextDocument doc;
    doc.setPlainText(text);
    QSyntaxHighlighter* h = createHighlighter(&doc, language);
    QVERIFY(h);
    QCoreApplication::processEvents(); // highlighting starts on the next event-loop turn
    const QTextCharFormat got = formatAt(&doc, line, column);
    if (token == plain) {
        QVERIFY2(!got.hasProperty(QTextFormat::ForegroundBrush),
                 qPrintable(got.foreground().color().name()));
        return;
    }
    const QTextCharFormat want = Theme::forApplication().format(Token(token));
    QCOMPARE(got.foreground().color(), want.foreground().color());
    QCOMPARE(got.fontWeight(), want.fontWeight());
    QCOMPARE(got.fontItalic(), want.fontItalic());
}

void TestHighlighter::editingReopensState()
{
    if (usesKSyntaxHighlighting())
        QSKIP("built-in highlighter behaviour");
    // Closing a triple-quoted string on line 0 must re-highlight the following lines.
    QTextDocument doc;
    doc.documentLayout(); // as in an editor: without a layout the document reports no edits
    doc.setPlainText("s = \"\"\"open\nx = 1\n");
    QSyntaxHighlighter* h = createHighlighter(&doc, "python");
    QVERIFY(h);
    QCoreApplication::processEvents();
    const QColor str = Theme::forApplication().format(Token::String).foreground().color();
    QCOMPARE(formatAt(&doc, 1, 0).foreground().color(), str);
    QTextCursor cursor(doc.findBlockByNumber(0));
    cursor.movePosition(QTextCursor::EndOfBlock);
    cursor.insertText("\"\"\"");
    QVERIFY(!formatAt(&doc, 1, 0).hasProperty(QTextFormat::ForegroundBrush));
}

QTEST_MAIN(TestHighlighter)
#include "tst_highlighter.moc"
