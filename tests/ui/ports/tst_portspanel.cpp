// The Ports panel and the in-app preview against a real lizard-local: python3 -m http.server
// serves a page (written through the files API) with a known title; Preview in the panel
// exposes the port and opens a PreviewPage whose QtWebEngine view shows that title, while the
// address field never shows the token. QtWebEngine is loaded only when the preview opens.
#include "client/lizardapi.h"
#include "models/exposurelist.h"
#include "models/portlistmodel.h"
#include "models/sandboxtablemodel.h"
#include "support/apiwait.h"
#include "support/livewindow.h"
#include "support/localserver.h"
#include "support/sandboxpolicy.h"
#include "support/webenginemain.h"
#include "ui/documenttabs.h"
#include "ui/mainwindow.h"
#include "ui/ports/portspanel.h"
#include "ui/ports/previewengine.h"
#include "ui/ports/previewpage.h"
#include "ui/sandboxpanel.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <optional>

using namespace lizard;
using ui::ports::PortsPanel;
using ui::ports::PreviewPage;

namespace {

const QString kTitle = QStringLiteral("Lizard preview test 42");
const QString kSubTitle = QStringLiteral("Second page");

bool webEngineMapped()
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    return maps.open(QIODevice::ReadOnly) && maps.readAll().contains("libQt6WebEngineCore");
}

QString jsResult(PreviewPage* page, const QString& script)
{
    std::optional<QString> result;
    page->browser()->runJavaScript(script, [&](const QString& r) { result = r; });
    lizard::test::waitUntil([&result] { return result.has_value(); }, 10000);
    return result.value_or(QStringLiteral("<no answer>"));
}

} // namespace

class TestPortsPanel : public QObject
{
    Q_OBJECT
private:
    QString m_sandboxId;
    lizard::test::LiveWindow m_live;
    client::ExecStream* m_httpServer = nullptr;
    QPointer<PreviewPage> m_page;

    PortsPanel* panel() const { return m_live.window()->portsPanel(); }

    bool writeFile(const QString& path, const QByteArray& content)
    {
        const auto written = lizard::test::waitFor<client::Unit>([&](QObject* ctx, auto done) {
            return m_live.api().writeFile(m_sandboxId, path, content, ctx, done);
        });
        return written && written->ok();
    }

private slots:
    void initTestCase()
    {
        const QString failed = m_live.start();
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        QString why;
        m_sandboxId = m_live.createSandbox(900000, &why);
        LIZ_REQUIRE_SANDBOX(m_sandboxId, why);
    }

    void cleanupTestCase()
    {
        delete m_httpServer; // ends the command before its sandbox goes
        m_httpServer = nullptr;
        m_live.stop();
    }

    void cleanup()
    {
        if (QTest::currentTestFailed())
            qWarning().noquote() << "lizard-local log (end):\n"
                                 << QString::fromUtf8(m_live.server().log().right(3000));
    }

    void panelFollowsTheSelectedSandbox()
    {
        QCOMPARE(panel()->statusText(), QString("Select a sandbox to see its ports."));
        QTRY_VERIFY_WITH_TIMEOUT(m_live.window()->sandboxModel() &&
                                     m_live.window()->sandboxModel()->rowOf(m_sandboxId) >= 0,
                                 20000);
        m_live.window()->sandboxPanel()->selectSandbox(m_sandboxId);
        QTRY_COMPARE(panel()->sandboxId(), m_sandboxId);
        m_live.window()->toolTabs()->setCurrentWidget(panel());
        QVERIFY(panel()->isVisible());
        QVERIFY(panel()->model()->isPolling()); // refreshes while visible
        QTRY_VERIFY_WITH_TIMEOUT(panel()->model()->hasScanned(), 30000);
        QVERIFY2(panel()->statusText().startsWith("No process"), qPrintable(panel()->statusText()));
        QVERIFY(!panel()->previewAction()->isEnabled());
    }

    void previewShowsThePageWithoutTheToken()
    {
        const QByteArray html = "<!doctype html><html><head><title>" + kTitle.toUtf8() +
                                "</title></head><body><h1>Hello from the sandbox</h1>"
                                "<p><a href=\"sub/page.html\">second page</a></p></body></html>";
        QVERIFY(writeFile("/tmp/site/index.html", html));
        QVERIFY(writeFile("/tmp/site/sub/page.html", "<html><head><title>" + kSubTitle.toUtf8() +
                                                         "</title></head><body>two</body></html>"));
        client::ExecOptions opts;
        opts.timeoutMs = 600000; // the longest a command may run
        opts.workdir = "/tmp/site";
        m_httpServer =
            m_live.api().execStream(m_sandboxId, "exec python3 -m http.server 8000", opts);

        QTRY_VERIFY_WITH_TIMEOUT(panel()->model()->rowOf(8000) >= 0, 30000);
        const int row = panel()->model()->rowOf(8000);
        QCOMPARE(panel()->model()->rowAt(row)->listening->process, QString("python3"));
        panel()->selectPort(8000);
        QCOMPARE(panel()->currentPort(), 8000);
        QVERIFY(panel()->previewAction()->isEnabled());
        QVERIFY(!panel()->unexposeAction()->isEnabled()); // not exposed yet

        QVERIFY2(!webEngineMapped(), "QtWebEngine must not be loaded before the first preview");
        QVERIFY(!ui::ports::PreviewLoader::isLoaded());

        int opened = 0;
        connect(panel(), &PortsPanel::previewOpened, this, [this, &opened](PreviewPage* page) {
            m_page = page;
            ++opened;
        });
        int exposeStatus = 0;
        connect(panel()->exposures(), &models::ExposureList::failed, this,
                [&exposeStatus](const client::ApiError& e) { exposeStatus = e.httpStatus; });
        panel()->previewAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(opened == 1 || exposeStatus != 0, 30000);
        disconnect(panel()->exposures(), &models::ExposureList::failed, this, nullptr);
        QVERIFY2(
            opened == 1,
            qPrintable(
                QStringLiteral("no preview opened; expose answered HTTP %1").arg(exposeStatus)));
        disconnect(panel(), &PortsPanel::previewOpened, this, nullptr);
        QVERIFY(m_page);
        QVERIFY2(m_page->hasBrowser(), qPrintable(ui::ports::PreviewLoader::errorString()));
        QVERIFY(webEngineMapped());
        QCOMPARE(m_live.window()->documentTabs()->currentDocument(),
                 static_cast<ui::DocumentPage*>(m_page.data()));
        QCOMPARE(m_page->sandboxId(), m_sandboxId);

        const auto exposure = panel()->exposures()->exposure(m_sandboxId, 8000);
        QVERIFY(exposure);
        QVERIFY(panel()->unexposeAction()->isEnabled());

        QTRY_COMPARE_WITH_TIMEOUT(m_page->pageTitle(), kTitle, 30000);
        const int tab = m_live.window()->documentTabs()->indexOf(m_page);
        QCOMPARE(m_live.window()->documentTabs()->tabText(tab), kTitle);
        QCOMPARE(jsResult(m_page, "document.querySelector('h1').textContent"),
                 QString("Hello from the sandbox"));

        // The token reached the server (as a header), never the address field or the page's URL.
        const QString address = m_page->addressField()->text();
        QCOMPARE(QUrl(address), QUrl("http://" + exposure->hostname + "/"));
        QVERIFY(!address.contains(exposure->accessToken));
        QVERIFY(!address.contains("lizard_token"));
        QVERIFY(!jsResult(m_page, "location.href").contains(exposure->accessToken));
        QVERIFY(!m_page->browser()->url().toString().contains(exposure->accessToken));
    }

    void navigateBackAndForward()
    {
        QVERIFY2(m_page, "previewShowsThePageWithoutTheToken opened no preview");
        QVERIFY(!m_page->backAction()->isEnabled());
        m_page->addressField()->setText("/sub/page.html");
        QTest::keyClick(m_page->addressField(), Qt::Key_Return);
        QTRY_COMPARE_WITH_TIMEOUT(m_page->pageTitle(), kSubTitle, 30000);
        QVERIFY(m_page->addressField()->text().endsWith("/sub/page.html"));
        QTRY_VERIFY(m_page->backAction()->isEnabled());
        m_page->addressField()->setFocus(); // where the user typed; Back still updates the field
        m_page->backAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(m_page->pageTitle(), kTitle, 30000);
        QTRY_VERIFY(!m_page->addressField()->text().contains("/sub/"));
        QTRY_VERIFY(m_page->forwardAction()->isEnabled());
        // An address being typed is not overwritten by a navigation.
        m_page->addressField()->clear();
        QTest::keyClicks(m_page->addressField(), "/typed");
        m_page->forwardAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(m_page->pageTitle(), kSubTitle, 30000);
        QCOMPARE(m_page->addressField()->text(), QString("/typed"));
        m_page->addressField()->setText("/sub/page.html");
        QTest::keyClick(m_page->addressField(), Qt::Key_Return);
        QTRY_VERIFY(m_page->addressField()->text().startsWith("http://"));
        QVERIFY(!m_page->addressField()->text().contains("lizard_token"));
    }

    void copyUrlCarriesTheToken()
    {
        QVERIFY2(m_page, "previewShowsThePageWithoutTheToken opened no preview");
        const auto exposure = panel()->exposures()->exposure(m_sandboxId, 8000);
        QVERIFY(exposure);
        m_page->copyUrlAction()->trigger();
        const QUrl copied(QApplication::clipboard()->text());
        QCOMPARE(copied.path(), QString("/sub/page.html"));
        QCOMPARE(copied.authority(), exposure->hostname);
        QVERIFY2(copied.query().contains("lizard_token=" + exposure->accessToken),
                 qPrintable(copied.toString()));

        panel()->copyUrlAction()->trigger();
        QTRY_COMPARE(QApplication::clipboard()->text(), exposure->url);

        // Preview again: the open tab is shown, no second one.
        const int pages = m_live.window()->documentTabs()->documents().size();
        m_live.window()->documentTabs()->setCurrentIndex(0);
        panel()->previewAction()->trigger();
        QCOMPARE(m_live.window()->documentTabs()->documents().size(), pages);
        QCOMPARE(m_live.window()->documentTabs()->currentDocument(),
                 static_cast<ui::DocumentPage*>(m_page.data()));
    }

    void unexposeEndsTheAccess()
    {
        QVERIFY2(m_page, "previewShowsThePageWithoutTheToken opened no preview");
        panel()->selectPort(8000);
        QVERIFY(panel()->unexposeAction()->isEnabled());
        panel()->unexposeAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(!panel()->exposures()->exposure(m_sandboxId, 8000), 30000);
        const int row = panel()->model()->rowOf(8000);
        QVERIFY(row >= 0); // still listening
        QVERIFY(panel()
                    ->model()
                    ->index(row, models::PortListModel::UrlColumn)
                    .data()
                    .toString()
                    .isEmpty());
        QVERIFY(!panel()->unexposeAction()->isEnabled());
        // The open preview no longer reaches the page.
        m_page->reloadAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(m_page->pageTitle() != kSubTitle && m_page->pageTitle() != kTitle,
                                 30000);
    }

    void closingThePreviewTab()
    {
        QVERIFY2(m_page, "previewShowsThePageWithoutTheToken opened no preview");
        QVERIFY(m_live.window()->documentTabs()->closeDocument(m_page));
        QTRY_VERIFY(m_page.isNull());
    }
};

LIZARD_WEBENGINE_TEST_MAIN(TestPortsPanel)

#include "tst_portspanel.moc"
