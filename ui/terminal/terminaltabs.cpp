#include "ui/terminal/terminaltabs.h"

#include "models/terminals/terminalsession.h"
#include "models/terminals/terminalsessions.h"
#include "ui/terminal/terminalpane.h"
#include "ui/terminal/terminalview.h"
#include "ui/theme/icontheme.h"

#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace lizard::ui {

TerminalTabs::TerminalTabs(client::LizardApi* api, const QString& sandboxId, QWidget* parent)
    : QWidget(parent), m_api(api), m_sandboxId(sandboxId),
      m_model(new models::TerminalSessions(api, sandboxId, this)), m_stack(new QStackedWidget),
      m_tabs(new QTabWidget), m_notice(new QLabel)
{
    m_tabs->setObjectName(QStringLiteral("terminalTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_tabs->tabBar()->setContextMenuPolicy(Qt::CustomContextMenu);
    auto* plus = new QToolButton;
    plus->setObjectName(QStringLiteral("newTerminalButton"));
    plus->setText(QStringLiteral("+"));
    plus->setToolTip(tr("New terminal (Ctrl+Shift+T)"));
    plus->setAutoRaise(true);
    m_tabs->setCornerWidget(plus, Qt::TopRightCorner);
    connect(plus, &QToolButton::clicked, this, [this] { newTerminal(); });
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &TerminalTabs::closeTab);
    connect(m_tabs->tabBar(), &QTabBar::customContextMenuRequested, this,
            &TerminalTabs::showTabMenu);
    connect(m_tabs->tabBar(), &QTabBar::tabBarDoubleClicked, this, [this](int index) {
        if (index >= 0) {
            m_tabs->setCurrentIndex(index);
            renameCurrent();
        }
    });

    m_notice->setObjectName(QStringLiteral("terminalNotice"));
    m_notice->setAlignment(Qt::AlignCenter);
    m_notice->setWordWrap(true);
    m_notice->setText(tr("Looking for this sandbox's terminals…"));
    m_stack->addWidget(m_notice);
    m_stack->addWidget(m_tabs);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);

    connect(m_model, &models::TerminalSessions::refreshed, this, &TerminalTabs::onRefreshed);
    connect(m_model, &models::TerminalSessions::supportedChanged, this,
            &TerminalTabs::showSupported);
    connect(m_model, &models::TerminalSessions::created, this,
            [this](const client::TerminalInfo& terminal) {
                m_creating = std::max(0, m_creating - 1);
                TerminalPane* pane = addPane(terminal);
                m_tabs->setCurrentWidget(pane);
                pane->setFocus();
            });
    connect(m_model, &models::TerminalSessions::failed, this,
            [this](const client::ApiError& error) {
                m_creating = 0;
                if (m_model->supported())
                    emit errorOccurred(error);
            });
}

void TerminalTabs::start()
{
    m_model->refresh();
    m_started = true;
}

void TerminalTabs::onRefreshed()
{
    // Attach to what the server runs and no tab shows yet: terminals of an earlier run of the
    // app, or of another client.
    for (const client::TerminalInfo& t : m_model->terminals()) {
        bool shown = false;
        for (int i = 0; i < m_tabs->count(); ++i)
            shown = shown || paneAt(i)->terminalId() == t.terminalId;
        if (!shown && t.isRunning())
            addPane(t);
    }
    const bool first = !m_listedOnce;
    m_listedOnce = true;
    showSupported();
    // A sandbox with no terminal gets its login shell at once: opening the tab means wanting one.
    if (first && m_tabs->count() == 0 && m_creating == 0)
        newTerminal();
}

void TerminalTabs::showSupported()
{
    if (!m_model->supported()) {
        m_notice->setText(m_model->unsupportedReason());
        m_stack->setCurrentWidget(m_notice);
        return;
    }
    if (m_listedOnce)
        m_stack->setCurrentWidget(m_tabs);
}

void TerminalTabs::newTerminal(const QString& cwd, const QString& cmd)
{
    ++m_creating;
    // The size of a view in this tab area; the view reports its real size once shown.
    TerminalPane* current = currentPane();
    const int cols = current ? current->view()->columns() : 0;
    const int rows = current ? current->view()->rows() : 0;
    m_model->create(cmd, cwd, cols, rows);
}

TerminalPane* TerminalTabs::addPane(const client::TerminalInfo& terminal)
{
    auto* pane = new TerminalPane(m_api, terminal);
    if (m_font != QFont())
        pane->view()->setTerminalFont(m_font);
    const int index = m_tabs->addTab(pane, pane->title());
    m_tabs->setTabToolTip(index, terminal.cmd.join(QLatin1Char(' ')));
    connect(pane, &TerminalPane::titleChanged, this, [this, pane] { updateTitle(pane); });
    connect(pane, &TerminalPane::newTerminalRequested, this, [this] { newTerminal(); });
    connect(pane->session(), &models::TerminalSession::errorMessage, this,
            [this](const QString&, const QString& text) { emit message(text); });
    m_stack->setCurrentWidget(m_tabs);
    return pane;
}

void TerminalTabs::updateTitle(TerminalPane* pane)
{
    const int index = m_tabs->indexOf(pane);
    if (index < 0)
        return;
    QString text = pane->title();
    if (pane->hasExited())
        text += tr(" (exited)");
    m_tabs->setTabText(index, text);
}

TerminalPane* TerminalTabs::currentPane() const
{
    return qobject_cast<TerminalPane*>(m_tabs->currentWidget());
}

TerminalPane* TerminalTabs::paneAt(int index) const
{
    return qobject_cast<TerminalPane*>(m_tabs->widget(index));
}

void TerminalTabs::renameCurrent()
{
    TerminalPane* pane = currentPane();
    if (!pane)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename terminal"), tr("Name:"),
                                               QLineEdit::Normal, pane->title(), &ok)
                             .trimmed();
    if (!ok)
        return;
    pane->setName(name);
    m_model->rename(pane->terminalId(), name);
}

void TerminalTabs::closeCurrent()
{
    closeTab(m_tabs->currentIndex());
}

void TerminalTabs::closeTab(int index)
{
    TerminalPane* pane = paneAt(index);
    if (!pane)
        return;
    // Closing the tab ends its program, as closing a terminal window does.
    pane->session()->detach();
    m_model->close(pane->terminalId());
    m_tabs->removeTab(index);
    pane->deleteLater();
    if (TerminalPane* next = currentPane())
        next->setFocus();
}

void TerminalTabs::setTerminalFont(const QFont& font)
{
    m_font = font;
    for (int i = 0; i < m_tabs->count(); ++i)
        paneAt(i)->view()->setTerminalFont(font);
}

void TerminalTabs::showTabMenu(const QPoint& pos)
{
    const int index = m_tabs->tabBar()->tabAt(pos);
    if (index < 0)
        return;
    m_tabs->setCurrentIndex(index);
    QMenu menu(this);
    menu.addAction(IconTheme::icon(QStringLiteral("edit-rename")), tr("Rename…"), this,
                   &TerminalTabs::renameCurrent);
    if (TerminalPane* pane = paneAt(index)) {
        menu.addAction(IconTheme::icon(QStringLiteral("edit-find")), tr("Find…"), pane,
                       &TerminalPane::showFind);
        menu.addAction(IconTheme::icon(QStringLiteral("media-playback-stop")),
                       tr("Send Ctrl+C (SIGINT)"), pane,
                       [pane] { pane->session()->sendSignal(QStringLiteral("SIGINT")); });
    }
    menu.addSeparator();
    menu.addAction(IconTheme::icon(QStringLiteral("utilities-terminal")), tr("New terminal"), this,
                   [this] { newTerminal(); });
    menu.addAction(IconTheme::icon(QStringLiteral("window-close")), tr("Close"), this,
                   [this, index] { closeTab(index); });
    menu.exec(m_tabs->tabBar()->mapToGlobal(pos));
}

} // namespace lizard::ui
