#include "ui/lifecycle/lifecyclecontroller.h"

#include "models/lifecycle/cleanuplist.h"
#include "models/lifecycle/endwatch.h"
#include "models/sandboxactions.h"
#include "models/sandboxtablemodel.h"
#include "ui/documentpage.h"
#include "ui/lifecycle/cleanupdialog.h"
#include "ui/lifecycle/endwarningstrip.h"
#include "ui/lifecycle/lifecyclepanel.h"
#include "ui/theme/icontheme.h"
#include "ui/workbench.h"

#include <QAction>
#include <QApplication>
#include <QStyle>
#include <QSystemTrayIcon>

namespace lizard::ui::lifecycle {

EndWarningStrip* LifecycleController::warningFor(const QString& sandboxId) const
{
    return m_strips.value(sandboxId);
}

CleanupDialog* LifecycleController::cleanupDialog() const
{
    return m_dialog;
}

LifecycleController::LifecycleController(Workbench* window, QObject* parent)
    : QObject(parent), m_window(window), m_panel(new LifecyclePanel),
      m_watch(new models::SandboxEndWatch(this)),
      m_cleanup(new QAction(IconTheme::icon(QStringLiteral("edit-clear")),
                            QStringLiteral("Clean &up…"), this))
{
    m_panel->setObjectName(QStringLiteral("lifecyclePanel"));
    window->addToolTab(m_panel, tr("Lifecycle"));
    m_panel->setBackend(window->sandboxes(), window->sandboxActions());
    m_panel->showSandbox(window->currentSandboxId());
    connect(window, &Workbench::currentSandboxChanged, m_panel, &LifecyclePanel::showSandbox);
    connect(m_panel, &LifecyclePanel::errorOccurred, window, &Workbench::showError);
    connect(m_panel, &LifecyclePanel::message, window, &Workbench::showInfo);

    m_watch->setSource([this] { return workedOn(); });
    m_watch->setApi(window->api());
    connect(m_watch, &models::SandboxEndWatch::endingSoon, this, &LifecycleController::warn);
    connect(m_watch, &models::SandboxEndWatch::noLongerEnding, this, [this](const QString& id) {
        if (EndWarningStrip* strip = m_strips.take(id))
            strip->deleteLater();
    });

    m_cleanup->setToolTip(QStringLiteral("What is left running or paused in every project"));
    connect(m_cleanup, &QAction::triggered, this, &LifecycleController::openCleanup);
    window->addSandboxMenuAction(m_cleanup);

    connect(window, &Workbench::backendChanged, this, [this] {
        m_panel->setBackend(m_window->sandboxes(), m_window->sandboxActions());
        m_panel->showSandbox(m_window->currentSandboxId());
        m_watch->setApi(m_window->api());
        if (m_dialog)
            m_dialog->close(); // it listed the other server's sandboxes
    });
}

QStringList LifecycleController::workedOn() const
{
    QStringList ids = m_window->consoleSandboxIds();
    for (const DocumentPage* page : m_window->documents())
        if (!page->sandboxId().isEmpty() && !ids.contains(page->sandboxId()))
            ids << page->sandboxId();
    return ids;
}

QString LifecycleController::whereText(const QString& sandboxId) const
{
    QStringList where;
    for (const DocumentPage* page : m_window->documents())
        if (page->sandboxId() == sandboxId)
            where << page->title();
    if (m_window->consoleSandboxIds().contains(sandboxId))
        where << QStringLiteral("its console");
    return where.join(QStringLiteral(", "));
}

void LifecycleController::warn(const client::SandboxInfo& info)
{
    const QString where = whereText(info.sandboxId);
    if (QSystemTrayIcon::isSystemTrayAvailable()) {
        if (m_tray == nullptr) {
            QIcon icon = QApplication::windowIcon();
            if (icon.isNull())
                icon = QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
            m_tray = new QSystemTrayIcon(icon, this);
            m_tray->setToolTip(QStringLiteral("lizard-desktop"));
            connect(m_tray, &QSystemTrayIcon::messageClicked, this, [this] {
                m_window->window()->raise();
                m_window->window()->activateWindow();
            });
        }
        m_tray->show();
        m_tray->showMessage(QStringLiteral("A sandbox ends in 5 minutes"),
                            endWarningText(info, where), QSystemTrayIcon::Warning, 30000);
    }
    // The tray's message has no buttons: Extend is in the window.
    if (EndWarningStrip* strip = m_strips.value(info.sandboxId)) {
        strip->setInfo(info);
        return;
    }
    auto* strip = new EndWarningStrip(info, where);
    m_strips.insert(info.sandboxId, strip);
    connect(strip, &EndWarningStrip::extendRequested, this, &LifecycleController::extend);
    connect(strip, &QObject::destroyed, this, [this, id = info.sandboxId] {
        if (m_strips.value(id).isNull())
            m_strips.remove(id);
    });
    m_window->addStrip(strip);
}

void LifecycleController::extend(const QString& sandboxId, int minutes)
{
    models::SandboxActions* actions = m_window->sandboxActions();
    if (actions == nullptr)
        return;
    actions->extend(
        sandboxId, minutes, this,
        [this, sandboxId, minutes](client::Outcome<client::Unit> outcome) {
            if (!outcome) {
                if (EndWarningStrip* strip = m_strips.value(sandboxId))
                    strip->showFailure(outcome.error().toDisplayString());
                return;
            }
            m_window->showInfo(
                QStringLiteral("Sandbox %1 now ends in %2 minutes.").arg(sandboxId).arg(minutes));
            m_watch->refetch(sandboxId); // its strip goes once the new deadline is read
        });
}

void LifecycleController::openCleanup()
{
    if (m_dialog) {
        m_dialog->raise();
        m_dialog->activateWindow();
        return;
    }
    auto* model = new models::CleanupListModel(m_window->api());
    auto* dialog = new CleanupDialog(model, m_window->window());
    model->setParent(dialog);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setObjectName(QStringLiteral("cleanupDialog"));
    connect(dialog, &CleanupDialog::errorOccurred, m_window, &Workbench::showError);
    // What it kills leaves the project's list too.
    connect(model, &models::CleanupListModel::killed, this, [this] {
        if (models::SandboxTableModel* table = m_window->sandboxes())
            table->refresh();
    });
    m_dialog = dialog;
    dialog->show();
    model->refresh();
}

} // namespace lizard::ui::lifecycle
