#include "ui/consolearea.h"

#include "models/consolesession.h"
#include "models/sandboxtablemodel.h"
#include "ui/consolewidget.h"

#include <QLabel>
#include <QLineEdit>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace lizard::ui {

ConsoleArea::ConsoleArea(QWidget* parent)
    : QWidget(parent), m_stack(new QStackedWidget(this)), m_placeholder(new QLabel(this)),
      m_title(new QLabel(this))
{
    m_placeholder->setText(QStringLiteral("Select a sandbox to open its console."));
    m_placeholder->setAlignment(Qt::AlignCenter);
    m_placeholder->setEnabled(false);
    m_stack->addWidget(m_placeholder);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_title);
    layout->addWidget(m_stack, 1);
    m_title->setText(QStringLiteral("<b>Console</b>"));
}

void ConsoleArea::setBackend(client::LizardApi* api, models::SandboxTableModel* sandboxes)
{
    clear();
    m_api = api;
    if (m_sandboxes)
        m_sandboxes->disconnect(this);
    m_sandboxes = sandboxes;
    if (sandboxes)
        connect(sandboxes, &QAbstractItemModel::rowsRemoved, this, &ConsoleArea::dropVanished);
}

void ConsoleArea::clear()
{
    for (ConsoleWidget* console : std::as_const(m_consoles)) {
        m_stack->removeWidget(console);
        delete console; // and its session, a child
    }
    m_consoles.clear();
    showSandbox({});
}

void ConsoleArea::showSandbox(const QString& sandboxId)
{
    if (sandboxId.isEmpty() || !m_api) {
        m_title->setText(QStringLiteral("<b>Console</b>"));
        m_stack->setCurrentWidget(m_placeholder);
        return;
    }
    ConsoleWidget* console = m_consoles.value(sandboxId);
    if (console == nullptr) {
        console = new ConsoleWidget(m_stack);
        auto* session = new models::ConsoleSession(m_api, sandboxId, console);
        console->setSession(session);
        connect(console, &ConsoleWidget::errorOccurred, this, &ConsoleArea::errorOccurred);
        connect(console, &ConsoleWidget::message, this, &ConsoleArea::message);
        m_stack->addWidget(console);
        m_consoles.insert(sandboxId, console);
    }
    m_title->setText(QStringLiteral("<b>Console</b> — %1").arg(sandboxId.toHtmlEscaped()));
    m_stack->setCurrentWidget(console);
    console->commandLine()->setFocus();
}

ConsoleWidget* ConsoleArea::currentConsole() const
{
    return qobject_cast<ConsoleWidget*>(m_stack->currentWidget());
}

void ConsoleArea::dropVanished()
{
    if (!m_sandboxes)
        return;
    const QStringList ids = m_consoles.keys();
    for (const QString& id : ids) {
        if (m_sandboxes->rowOf(id) >= 0)
            continue;
        ConsoleWidget* console = m_consoles.take(id);
        if (m_stack->currentWidget() == console)
            showSandbox({});
        m_stack->removeWidget(console);
        console->deleteLater(); // the session is its child
    }
}

} // namespace lizard::ui
