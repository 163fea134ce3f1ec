#include "ui/notebook/notebookheader.h"

#include "models/timeformat.h"
#include "notebook/notebookkernel.h"
#include "notebook/sandboxwatch.h"
#include "ui/elidinglabel.h"

#include <QAction>
#include <QCheckBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using lizard::notebook::NotebookKernel;
using lizard::notebook::SandboxWatch;

namespace {
constexpr int kAmberMs = 60000;

QString languageLabel(const QString& language)
{
    if (language.isEmpty() || language == u"python")
        return QStringLiteral("Python");
    if (language == u"javascript")
        return QStringLiteral("JavaScript");
    if (language == u"bash")
        return QStringLiteral("Bash");
    return language;
}
} // namespace

NotebookHeader::NotebookHeader(const QString& sandboxId, QWidget* parent)
    : QWidget(parent), m_sandboxId(sandboxId), m_context(new QLabel), m_kernel(new QLabel),
      m_kernelProgress(new QProgressBar), m_timeLeft(new QLabel), m_keptAlive(new QLabel),
      m_notice(new ElidingLabel), m_sandboxButton(new QToolButton), m_banner(new QFrame),
      m_bannerText(new QLabel),
      m_attachButton(new QPushButton(QStringLiteral("Attach to sandbox…"))),
      m_runOnNewButton(new QPushButton(QStringLiteral("Run on a new sandbox"))),
      m_runAllBox(new QCheckBox(QStringLiteral("then Run all")))
{
    auto* row = new QHBoxLayout;
    row->setContentsMargins(6, 2, 6, 2);
    row->setSpacing(10); // its own: a nested layout would take the outer one's 0
    m_context->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notice->setStyleSheet(QStringLiteral("color:#8d6e00;"));
    m_notice->hide();
    m_keptAlive->setStyleSheet(QStringLiteral("color:#2e7d32;"));
    m_keptAlive->setToolTip(
        QStringLiteral("Auto-extend (Lizard ▸ Preferences): the sandbox's deadline moves "
                       "forward while a cell ran or was edited in the last %1 minutes")
            .arg(SandboxWatch::kActiveMinutes));
    m_sandboxButton->setText(QStringLiteral("Sandbox"));
    m_sandboxButton->setObjectName(QStringLiteral("sandboxMenu"));
    m_sandboxButton->setPopupMode(QToolButton::InstantPopup);
    m_sandboxButton->setAutoRaise(true);
    m_sandboxButton->hide(); // until the page gives its actions
    row->addWidget(m_context);
    row->addWidget(m_notice, 1);
    row->addStretch(); // takes the room while no notice shows: the state stays at the right
    row->addWidget(m_kernelProgress);
    row->addWidget(m_kernel);
    row->addWidget(m_timeLeft);
    row->addWidget(m_keptAlive);
    row->addWidget(m_sandboxButton);
    m_kernel->setObjectName(QStringLiteral("kernelState"));
    // Moving, without a percentage: a kernel's start says nothing of how far it is.
    m_kernelProgress->setObjectName(QStringLiteral("kernelProgress"));
    m_kernelProgress->setRange(0, 0);
    m_kernelProgress->setTextVisible(false);
    m_kernelProgress->setFixedSize(56, 8);
    m_kernelProgress->hide();
    m_timeLeft->setObjectName(QStringLiteral("timeLeft"));

    m_banner->setObjectName(QStringLiteral("sandboxEndedBanner"));
    m_banner->setStyleSheet(QStringLiteral(
        "#sandboxEndedBanner { background:#fdecea; border-top:1px solid #f5c2bd; "
        "border-bottom:1px solid #f5c2bd; } QLabel { color:#8a1c12; font-weight:bold; }"));
    m_bannerText->setObjectName(QStringLiteral("sandboxEndedText"));
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_attachButton->setObjectName(QStringLiteral("bannerAttach"));
    m_runOnNewButton->setObjectName(QStringLiteral("bannerRunOnNew"));
    m_runAllBox->setObjectName(QStringLiteral("bannerThenRunAll"));
    auto* bannerRow = new QHBoxLayout(m_banner);
    bannerRow->setContentsMargins(8, 6, 8, 6);
    bannerRow->addWidget(m_bannerText, 1);
    bannerRow->addWidget(m_attachButton);
    bannerRow->addWidget(m_runOnNewButton);
    bannerRow->addWidget(m_runAllBox);
    m_banner->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(row);
    layout->addWidget(m_banner);
    setKernelState(QStringLiteral("unknown"));
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &NotebookHeader::updateTimeLeft);
    updateTimeLeft();
}

void NotebookHeader::setSandboxId(const QString& sandboxId)
{
    m_sandboxId = sandboxId;
    setContext(m_contextLabel, m_language);
    updateSandbox();
}

void NotebookHeader::setContext(const QString& label, const QString& language)
{
    m_contextLabel = label;
    m_language = language;
    QString text = QStringLiteral("Sandbox %1 · %2").arg(m_sandboxId, label);
    if (!NotebookKernel::keepsState(language))
        text += QStringLiteral(" · no state is kept between runs");
    m_context->setText(text);
    showKernelState();
}

void NotebookHeader::setKernelState(const QString& state)
{
    m_kernelState = state;
    showKernelState();
}

void NotebookHeader::showKernelState()
{
    static const QHash<QString, QString> colours = {
        {"idle", "#2e7d32"}, {"busy", "#ef6c00"}, {"dead", "#c62828"}, {"starting", "#1565c0"}};
    const QString& state = m_kernelState;
    const QString colour = colours.value(state, QStringLiteral("#777"));
    const QString language = languageLabel(m_language);
    const bool stateful = m_language.isEmpty() || NotebookKernel::keepsState(m_language);
    QString text, tip;
    if (state == u"starting") {
        text = QStringLiteral("starting %1…").arg(language);
        tip = QStringLiteral("The sandbox is starting the %1 kernel; a cell run meanwhile "
                             "starts once it is up")
                  .arg(language);
    } else if (state == u"unknown" && !stateful) {
        text = QStringLiteral("no kernel");
        tip = QStringLiteral("%1 runs each cell in a new process").arg(language);
    } else if (state == u"unknown") {
        text = QStringLiteral("kernel not started");
        tip = QStringLiteral("The first run starts the %1 kernel").arg(language);
    } else {
        text = QStringLiteral("kernel %1").arg(state);
        tip = state == u"dead" ? QStringLiteral("The kernel died; the next run starts a fresh one")
                               : QStringLiteral("The %1 kernel is %2").arg(language, state);
    }
    m_kernel->setText(
        QStringLiteral("<span style=\"color:%1\">●</span> %2").arg(colour, text.toHtmlEscaped()));
    m_kernel->setToolTip(tip);
    m_kernel->setProperty("state", state);
    m_kernelProgress->setVisible(state == u"starting");
}

void NotebookHeader::setWatch(SandboxWatch* watch)
{
    if (m_watch)
        disconnect(m_watch, nullptr, this, nullptr);
    m_watch = watch;
    if (watch) {
        connect(watch, &SandboxWatch::changed, this, &NotebookHeader::updateSandbox);
        m_tick.start();
    } else {
        m_tick.stop();
    }
    updateSandbox();
}

void NotebookHeader::setSandboxActions(QAction* attach, QAction* runOnNew, QAction* thenRunAll)
{
    auto* menu = new QMenu(m_sandboxButton);
    menu->addAction(attach);
    menu->addAction(runOnNew);
    menu->addAction(thenRunAll);
    m_sandboxButton->setMenu(menu);
    m_sandboxButton->setToolTip(QStringLiteral("Move this notebook to another sandbox"));
    m_sandboxButton->show();
    connect(m_attachButton, &QPushButton::clicked, attach, &QAction::trigger);
    connect(m_runOnNewButton, &QPushButton::clicked, runOnNew, &QAction::trigger);
    m_runAllBox->setChecked(thenRunAll->isChecked());
    connect(m_runAllBox, &QCheckBox::toggled, thenRunAll, &QAction::setChecked);
    connect(thenRunAll, &QAction::toggled, m_runAllBox, &QCheckBox::setChecked);
}

void NotebookHeader::setNotice(const QString& text)
{
    m_notice->setFullText(text);
    m_notice->setVisible(!text.isEmpty());
}

void NotebookHeader::updateSandbox()
{
    const bool ended = m_watch && m_watch->state() == SandboxWatch::State::Ended;
    if (ended) {
        m_bannerText->setTextFormat(Qt::PlainText);
        m_bannerText->setText(m_watch->endedText() +
                              QStringLiteral(". Your cells and outputs are kept."));
        // The raw error that led here ("… not found") says less than the banner.
        setNotice({});
    }
    m_banner->setVisible(ended);
    updateTimeLeft();
}

void NotebookHeader::updateTimeLeft()
{
    QString text;
    bool amber = false;
    bool keptAlive = false;
    if (m_watch) {
        switch (m_watch->state()) {
        case SandboxWatch::State::Unknown:
            break;
        case SandboxWatch::State::Ended:
            text = QStringLiteral("ended");
            break;
        case SandboxWatch::State::Paused:
            text = QStringLiteral("paused");
            break;
        case SandboxWatch::State::Running: {
            const QDateTime endAt = m_watch->endAt();
            const QDateTime now = QDateTime::currentDateTimeUtc();
            keptAlive = m_watch->autoExtend() && endAt.isValid();
            if (!endAt.isValid()) {
                text = QStringLiteral("no deadline");
            } else if (now.msecsTo(endAt) <= 0) {
                text = QStringLiteral("ending…");
                amber = true;
            } else {
                text = QStringLiteral("ends in %1").arg(models::formatTimeLeft(endAt, now));
                amber = now.msecsTo(endAt) < kAmberMs;
            }
            break;
        }
        }
    }
    m_timeLeft->setText(text);
    m_timeLeft->setStyleSheet(amber ? QStringLiteral("color:#b26a00; font-weight:bold;")
                                    : QString());
    m_timeLeft->setProperty("amber", amber);
    m_keptAlive->setText(keptAlive ? QStringLiteral("· kept alive while you work") : QString());
    m_keptAlive->setVisible(keptAlive);
}

QString NotebookHeader::contextText() const
{
    return m_context->text();
}
QString NotebookHeader::kernelText() const
{
    return m_kernel->property("state").toString();
}
QString NotebookHeader::kernelLabelText() const
{
    return QTextDocumentFragment::fromHtml(m_kernel->text()).toPlainText();
}
bool NotebookHeader::kernelProgressShown() const
{
    return !m_kernelProgress->isHidden();
}
QString NotebookHeader::timeLeftText() const
{
    return m_timeLeft->text();
}
QString NotebookHeader::keptAliveText() const
{
    return !m_keptAlive->isHidden() ? m_keptAlive->text() : QString();
}
QString NotebookHeader::noticeText() const
{
    return m_notice->fullText();
}
bool NotebookHeader::timeLeftIsAmber() const
{
    return m_timeLeft->property("amber").toBool();
}
bool NotebookHeader::bannerShown() const
{
    return !m_banner->isHidden();
}
QString NotebookHeader::bannerText() const
{
    return m_bannerText->text();
}

} // namespace lizard::ui::notebook
