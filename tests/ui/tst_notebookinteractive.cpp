// Interactive outputs against a real lizard-local and an `interpreter` sandbox: a plain HTML
// table stays in the light rich-text view (QtWebEngine not even loaded); a Plotly figure with
// plotly.js embedded (8 MB of HTML) draws its bars in an isolated web view that sizes itself
// to the chart; a page that tries the network reaches nothing (a QTcpServer here counts the
// attempts) and says so; a link the user clicks goes to the system browser while a script's
// navigation goes nowhere; many outputs hold at most InteractiveViewPool::kMaxLive web views,
// made as they scroll into view.
#include "support/apiwait.h"
#include "support/localserver.h"
#include "support/notebookwindow.h"
#include "support/screenshot.h"
#include "support/wait.h"
#include "support/webenginemain.h"
#include "ui/documenttabs.h"
#include "ui/mainwindow.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"
#include "ui/notebook/interactiveoutputview.h"
#include "ui/notebook/interactiveviewpool.h"
#include "ui/notebook/notebookcontroller.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/richoutputview.h"
#include "ui/notebook/richtextview.h"
#include "ui/ports/previewengine.h"

#include <QApplication>
#include <QDesktopServices>
#include <QFile>
#include <QScrollBar>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using namespace lizard;
using namespace lizard::ui::notebook;
using lizard::notebook::CellStatus;

namespace {

constexpr int kInteractiveRunTimeoutMs = 180000; // the first run starts a kernel in a fresh sandbox

bool webEngineMapped()
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    return maps.open(QIODevice::ReadOnly) && maps.readAll().contains("libQt6WebEngineCore");
}

// Pixels of Plotly's first trace colour (#636efa), give or take antialiasing.
int plotlyBluePixels(const QImage& image)
{
    int n = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n +=
                qAbs(c.red() - 0x63) < 8 && qAbs(c.green() - 0x6e) < 8 && qAbs(c.blue() - 0xfa) < 8;
        }
    }
    return n;
}

} // namespace

// Stands in for the system browser: QDesktopServices hands http(s) URLs to it.
class LinkCatcher : public QObject
{
    Q_OBJECT
public:
    QList<QUrl> opened;
public slots:
    void open(const QUrl& url) { opened.append(url); }
};

class TestNotebookInteractive : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void whichOutputsAreInteractive_data();
    void whichOutputsAreInteractive();
    void plainHtmlStaysLight();
    void plotlyChartDraws();
    void pageReachesNoNetwork();
    void onlyClickedLinksOpenOutside();
    void manyOutputsShareFewViews();

private:
    CellWidget* run(const QString& code)
    {
        CellListWidget* list = m_page->cells();
        CellWidget* cell = list->currentWidget();
        cell->cell()->setSource(code);
        list->runCurrent(CellEditor::RunMode::Advance);
        const auto finished = [cell] {
            const CellStatus s = cell->cell()->status();
            return s == CellStatus::Done || s == CellStatus::Error || s == CellStatus::Interrupted;
        };
        (void)lizard::test::waitUntil(finished,
                                      kInteractiveRunTimeoutMs); // callers check the status
        return cell;
    }
    static QList<InteractiveOutputView*> interactiveViews(CellWidget* cell)
    {
        QList<InteractiveOutputView*> out;
        for (int i = 0; i < cell->outputs()->count(); ++i) {
            if (auto* v = qobject_cast<InteractiveOutputView*>(cell->outputs()->view(i)))
                out.append(v);
        }
        return out;
    }
    static QString describe(CellWidget* cell)
    {
        QStringList parts;
        for (int i = 0; i < cell->outputs()->count(); ++i)
            parts << cell->outputs()->view(i)->plainText().left(1000);
        return parts.join("\n---\n");
    }
    // Waits for `script`'s result in the page to be `expected`; the last result otherwise.
    static QString waitForScript(InteractiveOutputView* view, const QString& script,
                                 const QString& expected)
    {
        // Shared with the callbacks: an answer may come after this returns.
        auto last = std::make_shared<QString>();
        (void)lizard::test::waitUntil(
            [&] {
                auto answer = std::make_shared<std::optional<QString>>();
                if (!view->runJavaScript(script, [answer](const QString& r) { *answer = r; }))
                    return false;
                if (!lizard::test::waitUntil([&] { return answer->has_value(); }, 5000))
                    return false;
                *last = **answer;
                return *last == expected;
            },
            30000);
        return *last;
    }
    // Scrolls the way Page Up/Down does until the top of `w` is on screen (a scroll of the
    // user's: the list stops following the cell that ran).
    void scrollTo(QWidget* w)
    {
        CellListWidget* list = m_page->cells();
        QScrollBar* bar = list->verticalScrollBar();
        const auto top = [&] { return w->mapTo(list->viewport(), QPoint(0, 0)).y(); };
        // Any scroll of the user's ends the list's following of the cell that ran (which would
        // pull the view back down as outputs above take their height).
        bar->triggerAction(QAbstractSlider::SliderSingleStepSub);
        for (int i = 0; i < 200 && (top() < 0 || top() >= list->viewport()->height() - 40); ++i) {
            bar->triggerAction(top() < 0 ? QAbstractSlider::SliderPageStepSub
                                         : QAbstractSlider::SliderPageStepAdd);
            QTest::qWait(30);
        }
        QTest::qWait(100);
    }

    NotebookPage* m_page = nullptr;
    lizard::test::NotebookWindow m_nb;
};

void TestNotebookInteractive::initTestCase()
{
    const QString why = m_nb.start();
    QVERIFY2(why.isEmpty(), qPrintable(why));
    m_page = m_nb.controller()->openNotebook(m_nb.sandboxId());
    QVERIFY(m_page);
}

void TestNotebookInteractive::cleanupTestCase()
{
    m_nb.stop();
}

void TestNotebookInteractive::whichOutputsAreInteractive_data()
{
    QTest::addColumn<QString>("mime");
    QTest::addColumn<QString>("data");
    QTest::addColumn<bool>("interactive");
    QTest::newRow("table") << "text/html"
                           << "<table><tr><td>1</td></tr></table>" << false;
    QTest::newRow("inline script") << "text/html"
                                   << "<div id=c></div><SCRIPT>draw()</SCRIPT>" << true;
    QTest::newRow("inline library")
        << "text/html"
        << "<script type=\"text/javascript\">/* plotly.js */</script>" << true;
    QTest::newRow("library from a CDN")
        << "text/html"
        << "<script src=\"https://cdn.plot.ly/plotly-2.min.js\"></script><div></div>" << false;
    QTest::newRow("protocol-relative") << "text/html"
                                       << "<script src='//cdn.example/x.js'></script>" << false;
    QTest::newRow("plotly json") << "application/vnd.plotly.v1+json"
                                 << "{\"data\": []}" << false;
    QTest::newRow("vega-lite json") << "application/vnd.vegalite.v4+json"
                                    << "{\"mark\": \"bar\"}" << false;
    QTest::newRow("javascript") << "application/javascript"
                                << "element.text('x')" << false;
}

void TestNotebookInteractive::whichOutputsAreInteractive()
{
    QFETCH(QString, mime);
    QFETCH(QString, data);
    QFETCH(bool, interactive);
    lizard::notebook::RichOutput output;
    output.data[mime.toStdString()] = data.toStdString();
    output.data["text/plain"] = "<Figure>";
    QCOMPARE(InteractiveOutputView::wants(output), interactive);
    // What the light view shows instead: the HTML when it needs no scripts, else the text.
    const bool plainHtml = mime == "text/html" && !data.contains("<script", Qt::CaseInsensitive);
    if (!interactive)
        QCOMPARE(RichOutputView::preferredMime(output), plainHtml ? mime : QString("text/plain"));
}

void TestNotebookInteractive::plainHtmlStaysLight()
{
    CellWidget* cell = run(
        "from IPython.display import HTML\n"
        "HTML('<table><tr><th>city</th><th>n</th></tr><tr><td>Lyon</td><td>3</td></tr></table>')");
    QVERIFY2(cell->cell()->status() == CellStatus::Done, qPrintable(describe(cell)));
    QCOMPARE(cell->outputs()->count(), 1);
    auto* rich = qobject_cast<RichOutputView*>(cell->outputs()->view(0));
    QVERIFY2(rich, qPrintable(cell->outputs()->view(0)->metaObject()->className()));
    QCOMPARE(rich->shownMime(), QStringLiteral("text/html"));
    QVERIFY(rich->textView()->toPlainText().contains("Lyon"));
    QTest::qWait(200);
    QVERIFY(m_page->findChildren<InteractiveOutputView*>().isEmpty());
    QVERIFY(!ui::ports::PreviewLoader::isLoaded());
    QVERIFY2(!webEngineMapped(), "a plain HTML output must not load QtWebEngine");
}

void TestNotebookInteractive::plotlyChartDraws()
{
    CellWidget* cell =
        run("import plotly.graph_objects as go\n"
            "from IPython.display import HTML\n"
            "fig = go.Figure(go.Bar(x=['north', 'south', 'east', 'west'], y=[4, 7, 3, 5]))\n"
            "fig.update_layout(title='Orders by region', width=700, height=420)\n"
            "HTML(fig.to_html(include_plotlyjs=True, full_html=False))");
    QVERIFY2(cell->cell()->status() == CellStatus::Done, qPrintable(describe(cell)));
    const QList<InteractiveOutputView*> views = interactiveViews(cell);
    QCOMPARE(views.size(), 1);
    InteractiveOutputView* view = views.first();
    scrollTo(view);
    QTRY_VERIFY_WITH_TIMEOUT(view->webView(), 10000);
    QVERIFY(ui::ports::PreviewLoader::isLoaded());
    QTRY_VERIFY_WITH_TIMEOUT(view->isLoaded(), 60000);
    // Plotly draws after the load; the view then takes the chart's height (420 px).
    QTRY_VERIFY_WITH_TIMEOUT(view->contentHeight() >= 420 && view->contentHeight() < 460, 30000);
    QTRY_COMPARE(view->height(), view->contentHeight());
    scrollTo(view);
    int blue = 0;
    QTRY_VERIFY_WITH_TIMEOUT((blue = plotlyBluePixels(view->webView()->grab().toImage())) > 2000,
                             30000);
    lizard::test::saveScreenshot(m_nb.window(), QStringLiteral("notebook-plotly"));
}

void TestNotebookInteractive::pageReachesNoNetwork()
{
    QTcpServer server;
    QVERIFY(server.listen(QHostAddress::LocalHost));
    int connections = 0;
    connect(&server, &QTcpServer::newConnection, this, [&] {
        while (QTcpSocket* s = server.nextPendingConnection()) {
            ++connections;
            s->close();
        }
    });
    const QString base = QStringLiteral("127.0.0.1:%1").arg(server.serverPort());
    const QString html =
        QStringLiteral("<div id=\"r\">waiting</div><img id=\"i\" src=\"http://%1/i.png\" "
                       "onerror=\"this.dataset.s='failed'\"><script>"
                       "try { new WebSocket('ws://%1/w'); } catch (e) {}"
                       "var x = new XMLHttpRequest(); try { x.open('GET', 'http://%1/xhr'); "
                       "x.send(); } catch (e) {}"
                       "fetch('http://%1/x').then(function () { r.textContent = 'reached'; },"
                       " function () { r.textContent = 'blocked'; });"
                       "</script>")
            .arg(base);
    CellWidget* cell = run("from IPython.display import HTML\nHTML(\"\"\"" + html + "\"\"\")");
    QVERIFY2(cell->cell()->status() == CellStatus::Done, qPrintable(describe(cell)));
    const QList<InteractiveOutputView*> views = interactiveViews(cell);
    QCOMPARE(views.size(), 1);
    InteractiveOutputView* view = views.first();
    scrollTo(view);
    QTRY_VERIFY_WITH_TIMEOUT(view->isLoaded(), 60000);
    QCOMPARE(waitForScript(view, "r.textContent + '/' + i.dataset.s", "blocked/failed"),
             QStringLiteral("blocked/failed"));
    QTest::qWait(1000); // anything late would have arrived by now
    QCOMPARE(connections, 0);
    // A small page: the view follows its height, not the 460 px it started with.
    QTRY_VERIFY(view->height() < 100);
}

void TestNotebookInteractive::onlyClickedLinksOpenOutside()
{
    LinkCatcher catcher;
    QDesktopServices::setUrlHandler("http", &catcher, "open");
    const auto unset = qScopeGuard([] { QDesktopServices::unsetUrlHandler("http"); });
    CellWidget* cell = run(
        "from IPython.display import HTML\n"
        "HTML('<a id=\"a\" href=\"http://docs.example/guide\" style=\"display:block;"
        "height:60px;font-size:40px\">guide</a><script>"
        "setTimeout(function () { location.href = \"http://evil.example/\"; }, 10);</script>')");
    QVERIFY2(cell->cell()->status() == CellStatus::Done, qPrintable(describe(cell)));
    InteractiveOutputView* view = interactiveViews(cell).value(0);
    QVERIFY(view);
    scrollTo(view);
    QTRY_VERIFY_WITH_TIMEOUT(view->isLoaded(), 60000);
    QTest::qWait(500);
    // The script's navigation was refused: still the same page, nothing opened.
    QCOMPARE(waitForScript(view, "document.getElementById('a') ? 'here' : 'gone'", "here"),
             QStringLiteral("here"));
    QVERIFY(catcher.opened.isEmpty());
    // The user clicks the link: it opens outside, the page stays.
    QWidget* target = view->webView()->childAt(20, 30); // QtWebEngine's render widget
    QVERIFY(target);
    scrollTo(view);
    QTest::mouseClick(target, Qt::LeftButton, {}, target->mapFrom(view->webView(), QPoint(20, 30)));
    QTRY_COMPARE_WITH_TIMEOUT(catcher.opened.size(), 1, 10000);
    QCOMPARE(catcher.opened.first(), QUrl("http://docs.example/guide"));
    QCOMPARE(waitForScript(view, "document.getElementById('a') ? 'here' : 'gone'", "here"),
             QStringLiteral("here"));
}

void TestNotebookInteractive::manyOutputsShareFewViews()
{
    CellWidget* cell = run("from IPython.display import HTML, display\n"
                           "for i in range(12):\n"
                           "    display(HTML('<div style=\"height:400px\">chart %d</div>"
                           "<script>document.body.dataset.n = \"%d\"</script>' % (i, i)))");
    QVERIFY2(cell->cell()->status() == CellStatus::Done, qPrintable(describe(cell)));
    const QList<InteractiveOutputView*> views = interactiveViews(cell);
    QCOMPARE(views.size(), 12);
    auto* pool = InteractiveViewPool::instance();
    scrollTo(views.first());
    QTRY_VERIFY(views.first()->webView());
    QVERIFY(!views.last()->webView()); // far below: not made
    QVERIFY2(pool->liveCount() <= InteractiveViewPool::kMaxLive,
             qPrintable(QString::number(pool->liveCount())));
    // Scrolling down makes the views below and drops those left above, never above the cap.
    QScrollBar* bar = m_page->cells()->verticalScrollBar();
    for (InteractiveOutputView* v : views) {
        scrollTo(v);
        QTRY_VERIFY(v->webView());
        QVERIFY2(pool->liveCount() <= InteractiveViewPool::kMaxLive,
                 qPrintable(QString::number(pool->liveCount())));
    }
    QVERIFY(bar->value() > 0);
    QTRY_VERIFY(!views.first()->webView());
    QTRY_VERIFY_WITH_TIMEOUT(views.last()->isLoaded(), 60000);
    QCOMPARE(waitForScript(views.last(), "document.body.dataset.n", "11"), QStringLiteral("11"));
    QCOMPARE(views.last()->height(), 400);
}

LIZARD_WEBENGINE_TEST_MAIN(TestNotebookInteractive)

#include "tst_notebookinteractive.moc"
