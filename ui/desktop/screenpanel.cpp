#include "ui/desktop/screenpanel.h"

#include "models/desktop/desktopsession.h"
#include "models/desktop/screenaddress.h"
#include "models/desktop/screensizes.h"
#include "ui/ports/previewengine.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDateTime>
#include <QDesktopServices>
#include <QDir>
#include <QFileDialog>
#include <QFrame>
#include <QLabel>
#include <QSaveFile>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui::desktop {

using models::DesktopSession;

using models::screenSizeText;

ScreenPanel::ScreenPanel(QWidget* parent)
    : QWidget(parent), m_session(new DesktopSession(this)), m_size(new QComboBox),
      m_status(new QLabel), m_banner(new QLabel), m_placeholder(new QLabel),
      m_stack(new QStackedWidget), m_frame(new QFrame)
{
    setObjectName(QStringLiteral("screenPanel"));
    auto* bar = new QToolBar;
    m_start = bar->addAction(IconTheme::icon(QStringLiteral("media-playback-start")),
                             QStringLiteral("Start"));
    m_start->setToolTip(QStringLiteral("Start the sandbox's desktop at the size beside"));
    for (const QSize& s : models::screenSizes())
        m_size->addItem(screenSizeText(s), s);
    m_size->setToolTip(QStringLiteral("The screen's size when the desktop starts"));
    m_size->setObjectName(QStringLiteral("screenSize"));
    bar->addWidget(m_size);
    m_stop = bar->addAction(IconTheme::icon(QStringLiteral("media-playback-stop")),
                            QStringLiteral("Stop"));
    m_stop->setToolTip(QStringLiteral("Stop the desktop and the programs on it"));
    bar->addSeparator();
    m_control = bar->addAction(IconTheme::icon(QStringLiteral("input-mouse")),
                               QStringLiteral("Take control"));
    m_control->setCheckable(true);
    m_control->setToolTip(
        QStringLiteral("Send your mouse and keyboard to the sandbox; off, you only watch"));
    bar->addSeparator();
    m_screenshot = bar->addAction(IconTheme::icon(QStringLiteral("lizard-screenshot")),
                                  QStringLiteral("Screenshot…"));
    m_screenshot->setToolTip(QStringLiteral("Save the screen as a PNG at the desktop's own size"));
    m_openExternal = bar->addAction(IconTheme::icon(QStringLiteral("internet-web-browser")),
                                    QStringLiteral("Open in browser"));
    m_openExternal->setToolTip(QStringLiteral(
        "Open the shown stream in the default browser (the link carries its credentials)"));

    m_status->setObjectName(QStringLiteral("screenStatus"));
    m_status->setWordWrap(true);
    m_banner->setObjectName(QStringLiteral("screenControlBanner"));
    m_banner->setText(QStringLiteral("You have control: your mouse and keyboard go to the sandbox. "
                                     "Turn off Take control to only watch."));
    m_banner->setStyleSheet(
        QStringLiteral("QLabel { background: #e8590c; color: white; padding: 4px 8px; "
                       "font-weight: bold; }"));
    m_banner->hide();
    m_placeholder->setObjectName(QStringLiteral("screenPlaceholder"));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setWordWrap(true);
    m_placeholder->setMargin(24);
    m_frame->setObjectName(QStringLiteral("screenFrame"));
    m_frameLayout = new QVBoxLayout(m_frame);
    m_stack->addWidget(m_placeholder);
    m_stack->addWidget(m_frame);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(bar);
    layout->addWidget(m_status);
    layout->addWidget(m_banner);
    layout->addWidget(m_stack, 1);
    styleFrame();

    connect(m_start, &QAction::triggered, this, [this] { m_session->start(chosenSize()); });
    connect(m_stop, &QAction::triggered, m_session, &DesktopSession::stop);
    connect(m_control, &QAction::toggled, this, &ScreenPanel::setControl);
    connect(m_screenshot, &QAction::triggered, this, &ScreenPanel::askScreenshot);
    connect(m_openExternal, &QAction::triggered, this, [this] {
        if (!m_loadedUrl.isValid() || !QDesktopServices::openUrl(m_loadedUrl))
            emit message(QStringLiteral("No browser could be started for the screen's link"));
    });
    connect(m_session, &DesktopSession::changed, this, &ScreenPanel::showState);
    connect(m_session, &DesktopSession::failed, this, &ScreenPanel::errorOccurred);
    showState();
}

ScreenPanel::~ScreenPanel()
{
    // The viewer reports to this panel: it goes first, while the panel is whole.
    dropViewer();
}

void ScreenPanel::setBackend(client::LizardApi* api)
{
    m_session->setBackend(api);
    showSandbox(QString());
}

void ScreenPanel::showSandbox(const QString& sandboxId)
{
    if (sandboxId == m_session->sandboxId() && !sandboxId.isEmpty())
        return;
    dropViewer();
    // Each sandbox starts watched only: control is given per sandbox, never carried over.
    m_control->setChecked(false);
    m_session->setSandbox(sandboxId);
}

bool ScreenPanel::event(QEvent* event)
{
    // In control, every key goes to the sandbox, the app's own shortcuts too (Ctrl+Q in a
    // remote editor must not quit the app): a shortcut the view did not claim reaches here
    // first, and is claimed for the view.
    if (event->type() == QEvent::ShortcutOverride && hasControl() && m_viewWidget &&
        m_viewWidget->isAncestorOf(QApplication::focusWidget())) {
        event->accept();
        return true;
    }
    return QWidget::event(event);
}

void ScreenPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_session->setFollowing(true);
}

void ScreenPanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_session->setFollowing(false);
}

void ScreenPanel::selectSize(QSize size)
{
    int i = m_size->findData(size);
    if (i < 0) {
        m_size->addItem(screenSizeText(size), size);
        i = m_size->count() - 1;
    }
    m_size->setCurrentIndex(i);
}

QSize ScreenPanel::chosenSize() const
{
    return m_size->currentData().toSize();
}
bool ScreenPanel::hasControl() const
{
    return m_control->isChecked();
}
QString ScreenPanel::statusText() const
{
    return m_status->text();
}
QString ScreenPanel::placeholderText() const
{
    return m_placeholder->text();
}
bool ScreenPanel::showsScreen() const
{
    return m_stack->currentWidget() == m_frame;
}

void ScreenPanel::setControl(bool on)
{
    if (m_control->isChecked() != on) {
        m_control->setChecked(on); // comes back here through toggled
        return;
    }
    styleFrame();
    showState();
    if (on && m_viewWidget)
        m_viewWidget->setFocus(Qt::OtherFocusReason);
}

void ScreenPanel::styleFrame()
{
    // The border is the promise that input goes to the sandbox: thick and orange only then.
    const bool on = hasControl();
    m_frame->setStyleSheet(
        on ? QStringLiteral("QFrame#screenFrame { border: 4px solid #e8590c; }")
           : QStringLiteral("QFrame#screenFrame { border: 1px solid palette(mid); }"));
    m_frameLayout->setContentsMargins(on ? 4 : 1, on ? 4 : 1, on ? 4 : 1, on ? 4 : 1);
    m_banner->setVisible(on && showsScreen());
}

void ScreenPanel::showState()
{
    const DesktopSession& s = *m_session;
    const bool haveSandbox = !s.sandboxId().isEmpty();
    const bool supported = s.support() == DesktopSession::Support::Yes;
    m_start->setEnabled(haveSandbox && s.support() != DesktopSession::Support::No && !s.isBusy() &&
                        !s.isRunning());
    m_size->setEnabled(m_start->isEnabled());
    m_stop->setEnabled(s.isRunning() && !s.isBusy());
    m_control->setEnabled(s.isRunning());
    m_screenshot->setEnabled(s.isRunning());
    m_openExternal->setEnabled(s.isRunning());
    if (s.isRunning()) // the size shown is the screen's, whoever started it
        selectSize({s.info().width, s.info().height});
    // Control ends with the desktop: a new start is watched until the user takes control again.
    if (!s.isRunning() && !s.isBusy() && hasControl()) {
        m_control->setChecked(false); // comes back here through setControl
        return;
    }

    QString placeholder;
    if (!haveSandbox)
        placeholder = QStringLiteral("Select a sandbox to see its screen.");
    else if (s.support() == DesktopSession::Support::No)
        placeholder = QStringLiteral(
            "This sandbox has no desktop: screens come with sandboxes of the desktop "
            "template (New sandbox… → Template: desktop).");
    else if (s.support() == DesktopSession::Support::Unknown)
        placeholder =
            s.problem().isEmpty() ? QStringLiteral("Reading the desktop's state…") : s.problem();
    else if (s.isBusy() && !s.isRunning())
        placeholder = QStringLiteral("Starting the desktop…");
    else if (!s.isRunning())
        placeholder =
            QStringLiteral("The desktop is not running. Start it to see the screen, or wait "
                           "for the sandbox's programs to start it.");

    QString status;
    if (supported && s.isRunning())
        status = QStringLiteral("Desktop %1 · %2")
                     .arg(screenSizeText({s.info().width, s.info().height}),
                          hasControl() ? QStringLiteral("you have control")
                                       : QStringLiteral("view only"));
    if (!s.problem().isEmpty() && s.support() != DesktopSession::Support::Unknown)
        status = status.isEmpty() ? s.problem() : status + QStringLiteral(" · ") + s.problem();
    m_status->setText(status);
    m_placeholder->setToolTip(s.unsupportedReason()); // the server's own words
    m_status->setVisible(!status.isEmpty());

    if (!placeholder.isEmpty()) {
        dropViewer();
        m_placeholder->setText(placeholder);
        m_stack->setCurrentWidget(m_placeholder);
    } else {
        showViewer(models::ScreenAddress::viewerUrl(s.info(), hasControl()));
    }
    m_banner->setVisible(hasControl() && showsScreen());
}

void ScreenPanel::showViewer(const QUrl& url)
{
    if (!url.isValid()) {
        dropViewer();
        m_placeholder->setText(
            QStringLiteral("The server answered an unusable address for the screen."));
        m_stack->setCurrentWidget(m_placeholder);
        return;
    }
    if (!m_view) {
        ports::PreviewEngine* engine = ports::PreviewLoader::engine();
        if (!engine) {
            m_placeholder->setText(ports::PreviewLoader::errorString() +
                                   QStringLiteral("\nOpen in browser still shows the screen."));
            m_stack->setCurrentWidget(m_placeholder);
            return;
        }
        m_view = engine->createView(models::ScreenAddress::origin(url),
                                    models::ScreenAddress::token(url), this, m_frame);
        m_viewWidget = m_view->widget();
        m_viewWidget->setObjectName(QStringLiteral("screenView"));
        m_frameLayout->addWidget(m_viewWidget);
    }
    m_stack->setCurrentWidget(m_frame);
    if (url != m_loadedUrl) {
        m_loadedUrl = url;
        m_view->load(url);
    }
}

void ScreenPanel::dropViewer()
{
    delete m_viewWidget;
    m_viewWidget = nullptr;
    m_view = nullptr;
    m_loadedUrl.clear();
}

void ScreenPanel::previewLoadFinished(bool ok)
{
    // The tab's own toolbar does what noVNC's side bar does (the stream, full screen apart), and
    // its Disconnect button would leave a dead view: the bar is hidden. Its status messages stay.
    // The page draws itself: the screen's first frame follows once its stream connects.
    if (ok && m_view)
        m_view->runJavaScript(
            QStringLiteral(
                "(() => { const s = document.createElement('style');"
                " s.textContent = '#noVNC_control_bar_anchor { display: none !important; }';"
                " document.head.appendChild(s); return 'hidden'; })()"),
            {});
    emit viewerLoaded(ok);
}

void ScreenPanel::saveScreenshotTo(const QString& path, std::function<void(bool ok)> done)
{
    m_session->takeScreenshot([this, path, done](client::Outcome<QByteArray> png) {
        bool ok = false;
        if (png.ok())
            ok = writeScreenshot(path, png.value());
        else
            emit errorOccurred(png.error());
        if (done)
            done(ok);
    });
}

bool ScreenPanel::writeScreenshot(const QString& path, const QByteArray& png)
{
    QSaveFile file(path);
    const bool ok =
        file.open(QIODevice::WriteOnly) && file.write(png) == png.size() && file.commit();
    emit message(ok ? QStringLiteral("Saved the screen to %1").arg(QDir::toNativeSeparators(path))
                    : QStringLiteral("Could not write %1: %2").arg(path, file.errorString()));
    return ok;
}

void ScreenPanel::askScreenshot()
{
    // The moment is the click: the picture is taken first, then where to keep it is asked.
    const QString sandboxId = m_session->sandboxId();
    m_session->takeScreenshot([this, sandboxId](client::Outcome<QByteArray> png) {
        if (!png.ok()) {
            emit errorOccurred(png.error());
            return;
        }
        QString dir = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
        if (dir.isEmpty() || !QDir(dir).exists())
            dir = QDir::homePath();
        const QString name =
            QStringLiteral("%1-screen-%2.png")
                .arg(sandboxId,
                     QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
        const QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save screenshot"),
                                                          QDir(dir).filePath(name),
                                                          QStringLiteral("PNG images (*.png)"));
        if (!path.isEmpty())
            writeScreenshot(path, png.value());
    });
}

} // namespace lizard::ui::desktop
