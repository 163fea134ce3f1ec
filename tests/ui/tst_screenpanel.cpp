// The Screen tab against a real lizard-local and a real desktop sandbox: Start shows the live
// screen (pixels of a page Chromium shows in the sandbox, scaled with the screen's aspect
// ratio); without control typing into the view changes nothing; Take control draws the orange
// border and banner, and typed keys reach the page, seen both in the view and in the sandbox's
// own screenshot (saved as a PNG at the desktop's size); after a pause and a resume the stream
// comes back; Stop, a base sandbox, and New sandbox… with the desktop template and a size.
// Saves the guide's pictures (docs/guide/screen-*.png).
#include "models/desktop/desktopsession.h"
#include "models/sandboxtablemodel.h"
#include "support/sandboxfixture.h"
#include "support/screenshot.h"
#include "support/wait.h"
#include "support/webenginemain.h"
#include "ui/createsandboxdialog.h"
#include "ui/desktop/screenpanel.h"
#include "ui/guidewindow.h"
#include "ui/mainwindow.h"
#include "ui/sandboxpanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFrame>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace lizard;
using lizard::test::ApiWaiter;

namespace {

// The page Chromium shows: red, and each key pressed turns it the next colour of the list. The
// page keeps the keys (Chromium would open its help on F1).
const char kPage[] = R"(<!doctype html><html><head><style>
html, body { margin: 0; height: 100%; background: #c0392b; }
h1 { margin: 0; padding: 48px; color: white; font: bold 44px sans-serif; }
</style></head><body><h1>A page in the sandbox: each key changes its colour</h1><script>
const colours = ['#27ae60', '#2e86de', '#8e44ad', '#f1c40f', '#16a085'];
let n = 0;
document.addEventListener('keydown', (e) => { e.preventDefault(); document.body.style.background = colours[n++ % colours.length]; });
</script></body></html>)";

const QColor kRed(0xc0, 0x39, 0x2b);
const QColor kGreen(0x27, 0xae, 0x60);
const QColor kOrange(0xe8, 0x59, 0x0c);

bool near(QRgb p, const QColor& c)
{
    return std::abs(qRed(p) - c.red()) <= 12 && std::abs(qGreen(p) - c.green()) <= 12 &&
           std::abs(qBlue(p) - c.blue()) <= 12;
}

// The part of `image` in colour `c`, and the bounding box of those pixels.
double share(const QImage& image, const QColor& c, QRect* box = nullptr)
{
    if (image.isNull())
        return 0;
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    qint64 hits = 0;
    int x0 = img.width(), y0 = img.height(), x1 = -1, y1 = -1;
    for (int y = 0; y < img.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(img.constScanLine(y));
        for (int x = 0; x < img.width(); ++x)
            if (near(line[x], c)) {
                ++hits;
                x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y),
                y1 = std::max(y1, y);
            }
    }
    if (box)
        *box = hits ? QRect(QPoint(x0, y0), QPoint(x1, y1)) : QRect();
    return double(hits) / (double(img.width()) * img.height());
}

// The widget that takes the web view's input (its focus proxy, all the way down).
QWidget* inputTarget(QWidget* w)
{
    while (w && w->focusProxy())
        w = w->focusProxy();
    return w;
}

} // namespace

class TestScreenPanel : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void cleanup() { m_fx.reportIfFailed(); }

    void notRunningSaysSo();
    void startShowsTheLiveScreen();
    void watchingSendsNothing();
    void takeControlTypesIntoThePage();
    void screenshotSavesThePng();
    void streamComesBackAfterPauseAndResume();
    void inControlAppShortcutsGoToTheSandbox();
    void stopAndABaseSandbox();
    void newSandboxDialogStartsADesktop();

private:
    QString run(const QString& sandboxId, const QString& cmd);
    QImage view() const;
    QColor screenColourInSandbox();

    lizard::test::SandboxFixture m_fx;
    QString m_desktop;
    QString m_base;
    QString m_created; // by the New sandbox dialog
    std::unique_ptr<ui::MainWindow> m_window;
    ui::desktop::ScreenPanel* m_screen = nullptr;
};

void TestScreenPanel::initTestCase()
{
    const QString failure = m_fx.start(QStringLiteral("desktop"), 900000);
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
    m_desktop = m_fx.sandboxId();
    client::CreateSandboxRequest req;
    req.projectId = m_fx.projectId();
    req.timeoutMs = 600000;
    QString why;
    m_base = lizard::test::startSandbox(m_fx.api(), req, &why);
    QVERIFY2(!m_base.isEmpty(), qPrintable(why));
    ApiWaiter<client::Unit> wrote;
    m_fx.api().writeFile(m_desktop, QStringLiteral("/tmp/page.html"), QByteArray(kPage), nullptr,
                         wrote.done());
    LIZ_AWAIT_OK(wrote);

    m_window = std::make_unique<ui::MainWindow>();
    m_window->setBackend(&m_fx.api(), "test", {});
    m_window->resize(1200, 900);
    m_window->show();
    m_screen = m_window->screenPanel();
    QVERIFY(m_screen);
    m_screen->session()->setPollInterval(300);
    QTRY_VERIFY_WITH_TIMEOUT(m_window->sandboxModel()->rowOf(m_desktop) >= 0, 30000);
    m_window->sandboxPanel()->selectSandbox(m_desktop);
    m_window->toolTabs()->setCurrentWidget(m_screen);
    QCOMPARE(m_window->toolTabs()->tabText(m_window->toolTabs()->currentIndex()),
             QStringLiteral("Screen"));
}

void TestScreenPanel::cleanupTestCase()
{
    m_window.reset();
    for (const QString& id : {m_base, m_created})
        if (!id.isEmpty())
            lizard::test::killSandbox(m_fx.api(), id);
    m_fx.stop();
}

QString TestScreenPanel::run(const QString& sandboxId, const QString& cmd)
{
    ApiWaiter<client::ExecResult> w;
    client::ExecOptions opts;
    opts.timeoutMs = 60000;
    m_fx.api().exec(sandboxId, cmd, opts, nullptr, w.done());
    if (!w.wait(70000) || !w.ok())
        return QStringLiteral("failed: ") + QString::fromUtf8(w.why());
    return w.value().stdoutText.trimmed() + w.value().stderrText.trimmed();
}

QImage TestScreenPanel::view() const
{
    QWidget* w = m_screen->screenWidget();
    return w ? w->grab().toImage() : QImage();
}

// The colour at the middle of the sandbox's own screenshot.
QColor TestScreenPanel::screenColourInSandbox()
{
    QTemporaryDir dir;
    bool saved = false, done = false;
    m_screen->saveScreenshotTo(dir.filePath("s.png"), [&](bool ok) { saved = ok, done = true; });
    if (!lizard::test::waitUntil([&] { return done; }, 30000) || !saved)
        return {};
    const QImage shot(dir.filePath("s.png"));
    return shot.isNull() ? QColor() : shot.pixelColor(shot.width() / 2, shot.height() / 2);
}

void TestScreenPanel::notRunningSaysSo()
{
    QTRY_VERIFY_WITH_TIMEOUT(m_screen->session()->support() == models::DesktopSession::Support::Yes,
                             20000);
    QVERIFY(!m_screen->showsScreen());
    QVERIFY2(m_screen->placeholderText().contains("not running"),
             qPrintable(m_screen->placeholderText()));
    QVERIFY(m_screen->startAction()->isEnabled());
    QVERIFY(!m_screen->stopAction()->isEnabled());
    QVERIFY(!m_screen->controlAction()->isEnabled());
    QVERIFY(!m_screen->hasControl());
}

void TestScreenPanel::startShowsTheLiveScreen()
{
    m_screen->sizeBox()->setCurrentIndex(m_screen->sizeBox()->findData(QSize(1024, 768)));
    m_screen->startAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(m_screen->showsScreen(), 30000);
    QCOMPARE(m_screen->session()->info().width, 1024);
    QCOMPARE(m_screen->session()->info().height, 768);
    // Watching uses the view-only stream.
    QCOMPARE(m_screen->viewerUrl().host(), QUrl(m_screen->session()->info().viewOnlyUrl).host());
    QVERIFY2(m_screen->statusText().contains("1024 × 768 · view only"),
             qPrintable(m_screen->statusText()));
    QCOMPARE(
        run(m_desktop,
            "setsid chromium --kiosk file:///tmp/page.html >/dev/null 2>&1 </dev/null & echo ok"),
        QStringLiteral("ok"));
    // The page fills the screen, so the red part of the view is the screen: most of the view,
    // and 4:3 whatever the view's own shape (the rest is the viewer's letterbox).
    // (The viewer's "Connected" note covers the top of the screen for a moment.)
    QRect box;
    const auto ratio = [&] { return box.isEmpty() ? 0.0 : double(box.width()) / box.height(); };
    QTRY_VERIFY_WITH_TIMEOUT(
        share(view(), kRed, &box) > 0.3 && std::abs(ratio() - 4.0 / 3.0) < 0.03, 60000);
    if (lizard::test::screenshotsWanted())
        QTest::qWait(3000); // the viewer's "Connected" note fades
    lizard::test::saveScreenshot(m_window->grab(), QStringLiteral("screen-watching"));
}

void TestScreenPanel::watchingSendsNothing()
{
    QWidget* target = inputTarget(m_screen->screenWidget());
    QVERIFY(target);
    QTest::mouseClick(target, Qt::LeftButton, {}, target->rect().center());
    QTest::keyClicks(target, "abc");
    QTest::qWait(1500);
    QVERIFY(share(view(), kRed) > 0.3);
    QCOMPARE(screenColourInSandbox(), kRed);
    QVERIFY(!m_screen->findChild<QLabel*>("screenControlBanner")->isVisible());
}

void TestScreenPanel::takeControlTypesIntoThePage()
{
    const QUrl watching = m_screen->viewerUrl();
    QSignalSpy loaded(m_screen, &ui::desktop::ScreenPanel::viewerLoaded);
    m_screen->controlAction()->trigger();
    QVERIFY(m_screen->hasControl());
    QCOMPARE(m_screen->viewerUrl().host(), QUrl(m_screen->session()->info().url).host());
    QVERIFY(m_screen->viewerUrl() != watching);
    QVERIFY(m_screen->findChild<QLabel*>("screenControlBanner")->isVisible());
    QVERIFY2(m_screen->statusText().contains("you have control"),
             qPrintable(m_screen->statusText()));
    // The border a user sees around the screen is orange.
    const QImage frame = m_screen->screenFrame()->grab().toImage();
    QVERIFY(near(frame.pixel(1, frame.height() / 2), kOrange));
    QVERIFY(near(frame.pixel(frame.width() - 2, frame.height() / 2), kOrange));
    // The full stream's page loads and connects; a click gives the page the keyboard, and one key
    // turns it green. (The view's input widget is made anew when the page changes origin.)
    QTRY_VERIFY_WITH_TIMEOUT(!loaded.isEmpty(), 30000);
    QVERIFY(loaded.last().first().toBool());
    QTRY_VERIFY_WITH_TIMEOUT(share(view(), kRed) > 0.3, 30000);
    QWidget* target = inputTarget(m_screen->screenWidget());
    QTest::mouseClick(target, Qt::LeftButton, {}, target->rect().center());
    QTest::keyClick(target, Qt::Key_X);
    QTRY_VERIFY_WITH_TIMEOUT(share(view(), kGreen) > 0.3, 15000);
    if (lizard::test::screenshotsWanted())
        QTest::qWait(3000);
    lizard::test::saveScreenshot(m_window->grab(), QStringLiteral("screen-control"));
}

void TestScreenPanel::screenshotSavesThePng()
{
    QTemporaryDir dir;
    bool saved = false, done = false;
    QSignalSpy said(m_screen, &ui::desktop::ScreenPanel::message);
    m_screen->saveScreenshotTo(dir.filePath("screen.png"),
                               [&](bool ok) { saved = ok, done = true; });
    QTRY_VERIFY_WITH_TIMEOUT(done, 30000);
    QVERIFY(saved);
    const QImage shot(dir.filePath("screen.png"));
    QCOMPARE(shot.size(), QSize(1024, 768));
    QCOMPARE(shot.pixelColor(512, 384).name(), kGreen.name());
    QVERIFY(!said.isEmpty() && said.last().first().toString().contains("Saved the screen"));
    // The sandbox keeps no copy.
    QCOMPARE(run(m_desktop, "ls /tmp | grep -c lizard-screenshot"), QStringLiteral("0"));
}

void TestScreenPanel::streamComesBackAfterPauseAndResume()
{
    ApiWaiter<client::Unit> paused;
    m_fx.api().pauseSandbox(m_desktop, nullptr, paused.done());
    LIZ_AWAIT_OK(paused);
    QTRY_VERIFY_WITH_TIMEOUT(m_screen->statusText().contains("paused"), 20000);
    QVERIFY(m_screen->showsScreen()); // the last picture stays
    ApiWaiter<client::Unit> resumed;
    m_fx.api().resumeSandbox(m_desktop, nullptr, resumed.done());
    LIZ_AWAIT_OK(resumed);
    QTRY_VERIFY_WITH_TIMEOUT(!m_screen->statusText().contains("paused"), 20000);
    // A key through the xdotool of the sandbox turns the page blue; the view shows it.
    const double greenBefore = share(view(), kGreen);
    QVERIFY(greenBefore > 0.3);
    QCOMPARE(run(m_desktop, "xdotool key y && echo ok"), QStringLiteral("ok"));
    QTRY_VERIFY_WITH_TIMEOUT(share(view(), QColor(0x2e, 0x86, 0xde)) > 0.3, 20000);
}

void TestScreenPanel::inControlAppShortcutsGoToTheSandbox()
{
    // F1 is the app's User guide; in control it is a key for the sandbox's page (blue → purple).
    QVERIFY(m_screen->hasControl());
    QWidget* target = inputTarget(m_screen->screenWidget());
    QTest::mouseClick(target, Qt::LeftButton, {}, target->rect().center());
    QTest::keyClick(target, Qt::Key_F1);
    QTRY_VERIFY_WITH_TIMEOUT(share(view(), QColor(0x8e, 0x44, 0xad)) > 0.3, 15000);
    QVERIFY(m_window->findChild<ui::GuideWindow*>() == nullptr);
}

void TestScreenPanel::stopAndABaseSandbox()
{
    m_screen->stopAction()->trigger();
    QTRY_VERIFY_WITH_TIMEOUT(!m_screen->showsScreen(), 30000);
    QVERIFY2(m_screen->placeholderText().contains("not running"),
             qPrintable(m_screen->placeholderText()));
    QVERIFY(!m_screen->hasControl()); // control ends with the desktop
    const QString status = run(m_desktop, "lizard-desktop status");
    QVERIFY2(status.startsWith("stopped"), qPrintable(status));

    m_window->sandboxPanel()->selectSandbox(m_base);
    QTRY_VERIFY_WITH_TIMEOUT(m_screen->session()->support() == models::DesktopSession::Support::No,
                             20000);
    QVERIFY2(m_screen->placeholderText().contains("desktop template"),
             qPrintable(m_screen->placeholderText()));
    QVERIFY(!m_screen->startAction()->isEnabled());
    QVERIFY(!m_screen->hasControl()); // control is never carried to another sandbox
    lizard::test::saveScreenshot(m_screen->grab(), QStringLiteral("screen-base"));
}

void TestScreenPanel::newSandboxDialogStartsADesktop()
{
    m_window->sandboxPanel()->newAction()->trigger();
    ui::CreateSandboxDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<ui::CreateSandboxDialog*>()) != nullptr);
    QVERIFY(!dialog->screenBox()->isEnabled());
    QVERIFY(!dialog->screenSize().isValid());
    dialog->templateBox()->setCurrentIndex(
        dialog->templateBox()->findData(QStringLiteral("desktop")));
    QVERIFY(dialog->screenBox()->isEnabled());
    dialog->screenBox()->setCurrentIndex(dialog->screenBox()->findData(QSize(800, 600)));
    QCOMPARE(dialog->screenSize(), QSize(800, 600));
    lizard::test::saveScreenshot(dialog->grab(), QStringLiteral("screen-new-sandbox"));
    QSignalSpy created(dialog, &ui::CreateSandboxDialog::sandboxCreated);
    dialog->buttons()->button(QDialogButtonBox::Ok)->click();
    QTRY_VERIFY_WITH_TIMEOUT(created.count() == 1, 60000);
    m_created = created.first().first().value<client::SandboxInfo>().sandboxId;
    QCOMPARE(m_window->sandboxPanel()->currentSandboxId(), m_created);
    // Once its desktop runs, the Screen tab shows it.
    QTRY_VERIFY_WITH_TIMEOUT(
        m_screen->showsScreen() && m_screen->session()->sandboxId() == m_created, 60000);
    QCOMPARE(m_window->toolTabs()->currentWidget(), m_screen);
    QCOMPARE(m_screen->session()->info().width, 800);
    QCOMPARE(m_screen->session()->info().height, 600);
    QCOMPARE(m_screen->chosenSize(), QSize(800, 600)); // the size list shows the screen's
}

LIZARD_WEBENGINE_TEST_MAIN(TestScreenPanel)

#include "tst_screenpanel.moc"
