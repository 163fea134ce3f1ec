#include "ui/terminal/terminalarea.h"

#include "models/sandboxtablemodel.h"
#include "ui/terminal/terminalpane.h"
#include "ui/terminal/terminaltabs.h"
#include "ui/terminal/terminalview.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QFontDialog>
#include <QHash>
#include <QLabel>
#include <QStackedWidget>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui {

namespace {

// Each action's icon (ui/theme/icontheme.h), by the action's name.
QString iconOf(const QString& action)
{
    static const QHash<QString, QString> icons{
        {QStringLiteral("terminalNew"), QStringLiteral("utilities-terminal")},
        {QStringLiteral("terminalRename"), QStringLiteral("edit-rename")},
        {QStringLiteral("terminalClose"), QStringLiteral("window-close")},
        {QStringLiteral("terminalFindAction"), QStringLiteral("edit-find")},
        {QStringLiteral("terminalZoomIn"), QStringLiteral("zoom-in")},
        {QStringLiteral("terminalZoomOut"), QStringLiteral("zoom-out")},
        {QStringLiteral("terminalFont"), QStringLiteral("preferences-desktop-font")}};
    return icons.value(action);
}

} // namespace

TerminalArea::TerminalArea(QWidget* parent)
    : QWidget(parent), m_stack(new QStackedWidget), m_placeholder(new QLabel)
{
    setObjectName(QStringLiteral("terminalArea"));
    m_placeholder->setObjectName(QStringLiteral("terminalPlaceholder"));
    m_placeholder->setText(tr("Select a running sandbox to open a terminal in it."));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false);
    m_stack->addWidget(m_placeholder);

    auto* bar = new QToolBar;
    bar->setIconSize(QSize(16, 16));
    bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
    const auto make = [this, bar](const QString& text, const QString& name, const QString& keys,
                                  auto slot) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        a->setIcon(IconTheme::icon(iconOf(name)));
        if (!keys.isEmpty()) {
            a->setShortcut(QKeySequence(keys));
            a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        }
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        bar->addAction(a);
        return a;
    };
    m_new = make(tr("New terminal"), QStringLiteral("terminalNew"), QStringLiteral("Ctrl+Shift+T"),
                 [this] {
                     if (TerminalTabs* tabs = currentTabs())
                         tabs->newTerminal();
                 });
    m_paneActions << make(tr("Rename…"), QStringLiteral("terminalRename"), QString(), [this] {
        if (TerminalTabs* tabs = currentTabs())
            tabs->renameCurrent();
    });
    m_paneActions << make(tr("Close"), QStringLiteral("terminalClose"),
                          QStringLiteral("Ctrl+Shift+W"), [this] {
                              if (TerminalTabs* tabs = currentTabs())
                                  tabs->closeCurrent();
                          });
    bar->addSeparator();
    m_paneActions << make(tr("Find"), QStringLiteral("terminalFindAction"), QString(), [this] {
        if (TerminalTabs* tabs = currentTabs(); tabs && tabs->currentPane())
            tabs->currentPane()->showFind();
    });
    m_paneActions << make(tr("Zoom in"), QStringLiteral("terminalZoomIn"), QString(),
                          [this] { zoom(1); });
    m_paneActions << make(tr("Zoom out"), QStringLiteral("terminalZoomOut"), QString(),
                          [this] { zoom(-1); });
    make(tr("Font…"), QStringLiteral("terminalFont"), QString(), &TerminalArea::chooseFont);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(bar);
    layout->addWidget(m_stack, 1);
    showSandbox({});
}

void TerminalArea::setBackend(client::LizardApi* api, models::SandboxTableModel* sandboxes)
{
    clear();
    m_api = api;
    if (m_sandboxes)
        m_sandboxes->disconnect(this);
    m_sandboxes = sandboxes;
    if (sandboxes)
        connect(sandboxes, &QAbstractItemModel::rowsRemoved, this, &TerminalArea::dropVanished);
}

void TerminalArea::clear()
{
    for (TerminalTabs* tabs : std::as_const(m_tabs)) {
        m_stack->removeWidget(tabs);
        delete tabs; // detaches its terminals; they keep running on the server
    }
    m_tabs.clear();
    showSandbox({});
}

TerminalTabs* TerminalArea::ensureTabs(const QString& sandboxId)
{
    TerminalTabs* tabs = m_tabs.value(sandboxId);
    if (tabs)
        return tabs;
    tabs = new TerminalTabs(m_api, sandboxId, m_stack);
    if (m_font != QFont())
        tabs->setTerminalFont(m_font);
    connect(tabs, &TerminalTabs::errorOccurred, this, &TerminalArea::errorOccurred);
    connect(tabs, &TerminalTabs::message, this, &TerminalArea::message);
    m_stack->addWidget(tabs);
    m_tabs.insert(sandboxId, tabs);
    return tabs;
}

void TerminalArea::showSandbox(const QString& sandboxId)
{
    m_current = sandboxId;
    const bool have = !sandboxId.isEmpty() && m_api;
    m_new->setEnabled(have);
    for (QAction* a : std::as_const(m_paneActions))
        a->setEnabled(have);
    if (!have) {
        m_stack->setCurrentWidget(m_placeholder);
        return;
    }
    // Terminals are made and attached only when someone looks: a sandbox selected while the
    // tab is hidden costs nothing.
    if (!isVisible() && !m_tabs.contains(sandboxId))
        return m_stack->setCurrentWidget(m_placeholder);
    TerminalTabs* tabs = ensureTabs(sandboxId);
    m_stack->setCurrentWidget(tabs);
    if (!tabs->isStarted())
        tabs->start();
    if (TerminalPane* pane = tabs->currentPane())
        pane->setFocus();
}

void TerminalArea::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (!m_current.isEmpty() && m_stack->currentWidget() == m_placeholder)
        showSandbox(m_current);
}

void TerminalArea::openTerminal(const QString& sandboxId, const QString& cwd)
{
    if (sandboxId.isEmpty() || !m_api)
        return;
    m_current = sandboxId;
    TerminalTabs* tabs = ensureTabs(sandboxId);
    m_stack->setCurrentWidget(tabs);
    // Listing first would also start a login shell in a sandbox with none: the one asked for
    // here is enough, so only the list's re-attach part runs.
    tabs->newTerminal(cwd);
    if (!tabs->isStarted())
        tabs->start();
}

TerminalTabs* TerminalArea::currentTabs() const
{
    return qobject_cast<TerminalTabs*>(m_stack->currentWidget());
}

void TerminalArea::setTerminalFont(const QFont& font)
{
    m_font = font;
    for (TerminalTabs* tabs : std::as_const(m_tabs))
        tabs->setTerminalFont(font);
}

void TerminalArea::chooseFont()
{
    TerminalTabs* tabs = currentTabs();
    QFont start = m_font;
    if (start == QFont() && tabs && tabs->currentPane())
        start = tabs->currentPane()->view()->terminalFont();
    bool ok = false;
    const QFont font =
        QFontDialog::getFont(&ok, start, this, tr("Terminal font"), QFontDialog::MonospacedFonts);
    if (!ok)
        return;
    setTerminalFont(font);
    emit fontChosen(font);
}

void TerminalArea::zoom(int step)
{
    TerminalTabs* tabs = currentTabs();
    TerminalPane* pane = tabs ? tabs->currentPane() : nullptr;
    if (!pane)
        return;
    if (step > 0)
        pane->view()->zoomIn();
    else
        pane->view()->zoomOut();
}

void TerminalArea::dropVanished()
{
    if (!m_sandboxes)
        return;
    const QStringList ids = m_tabs.keys();
    for (const QString& id : ids) {
        if (m_sandboxes->rowOf(id) >= 0)
            continue;
        TerminalTabs* tabs = m_tabs.take(id);
        if (m_stack->currentWidget() == tabs)
            showSandbox({});
        m_stack->removeWidget(tabs);
        tabs->deleteLater();
    }
}

} // namespace lizard::ui
