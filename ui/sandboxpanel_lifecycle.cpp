// SandboxPanel's lifecycle actions: Pause, Resume, Snapshot…, Fork….
#include "models/sandboxactions.h"
#include "models/sandboxstaterules.h"
#include "models/sandboxtablemodel.h"
#include "ui/forkdialog.h"
#include "ui/sandboxpanel.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QDateTime>
#include <QInputDialog>
#include <QToolBar>

namespace lizard::ui {

void SandboxPanel::createLifecycleActions()
{
    m_pause = m_bar->addAction(IconTheme::icon(QStringLiteral("media-playback-pause")),
                               QStringLiteral("Pause"));
    m_resume = m_bar->addAction(IconTheme::icon(QStringLiteral("media-playback-start")),
                                QStringLiteral("Resume"));
    m_snapshot = m_bar->addAction(IconTheme::icon(QStringLiteral("camera-photo")),
                                  QStringLiteral("Snapshot…"));
    m_fork =
        m_bar->addAction(IconTheme::icon(QStringLiteral("lizard-fork")), QStringLiteral("Fork…"));
    m_pause->setToolTip(QStringLiteral("Freeze every process of the sandbox; memory is kept"));
    m_resume->setToolTip(QStringLiteral("Let a paused sandbox run again"));
    m_snapshot->setToolTip(QStringLiteral("Save the sandbox's files as a snapshot of the project"));
    m_fork->setToolTip(QStringLiteral("New sandboxes with a copy of this one's files"));
    connect(m_pause, &QAction::triggered, this, [this] {
        for (const QString& id : selectedFor(int(models::SandboxAction::Pause)))
            pauseSandbox(id);
    });
    connect(m_resume, &QAction::triggered, this, [this] {
        for (const QString& id : selectedFor(int(models::SandboxAction::Resume)))
            resumeSandbox(id);
    });
    connect(m_snapshot, &QAction::triggered, this, &SandboxPanel::askSnapshotName);
    connect(m_fork, &QAction::triggered, this, &SandboxPanel::openForkDialog);
}

void SandboxPanel::pauseSandbox(const QString& sandboxId)
{
    if (sandboxId.isEmpty() || !m_actions)
        return;
    m_actions->pause(sandboxId, this, [this, sandboxId](client::Outcome<client::Unit> outcome) {
        if (outcome)
            emit message(QStringLiteral("Pausing sandbox %1").arg(sandboxId));
        else
            emit errorOccurred(outcome.error());
    });
}

void SandboxPanel::resumeSandbox(const QString& sandboxId)
{
    if (sandboxId.isEmpty() || !m_actions)
        return;
    m_actions->resume(sandboxId, this, [this, sandboxId](client::Outcome<client::Unit> outcome) {
        if (outcome)
            emit message(QStringLiteral("Resuming sandbox %1").arg(sandboxId));
        else
            emit errorOccurred(outcome.error());
    });
}

void SandboxPanel::snapshotSandbox(const QString& sandboxId, const QString& name)
{
    if (sandboxId.isEmpty() || !m_actions)
        return;
    m_actions->snapshot(
        sandboxId, name, this, [this, name](client::Outcome<client::Snapshot> outcome) {
            if (outcome)
                emit message(
                    QStringLiteral("Snapshot “%1” is being saved (see Snapshots)").arg(name));
            else
                emit errorOccurred(outcome.error());
        });
}

void SandboxPanel::askSnapshotName()
{
    const QString id = currentSandboxId();
    if (id.isEmpty())
        return;
    // Not modal for the app: the table keeps updating while the name is typed.
    auto* ask = new QInputDialog(this);
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setObjectName(QStringLiteral("snapshotNameDialog"));
    ask->setWindowTitle(QStringLiteral("Snapshot %1").arg(id));
    ask->setLabelText(QStringLiteral("Name of the snapshot:"));
    ask->setTextValue(QStringLiteral("%1 %2").arg(
        id, QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd hh:mm"))));
    connect(ask, &QInputDialog::textValueSelected, this, [this, id](const QString& text) {
        const QString name = text.trimmed();
        if (name.isEmpty()) {
            emit message(QStringLiteral("A snapshot needs a name"));
            return;
        }
        snapshotSandbox(id, name);
    });
    ask->open();
}

void SandboxPanel::openForkDialog()
{
    const QString id = currentSandboxId();
    if (id.isEmpty() || !m_actions)
        return;
    auto* dialog = new ForkDialog(m_actions, id, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(
        dialog, &ForkDialog::forked, this,
        [this, id](const QList<client::SandboxInfo>& copies, const QStringList& failures) {
            QStringList ids;
            for (const auto& info : copies)
                ids << info.sandboxId;
            selectSandboxes(ids);
            if (!failures.isEmpty()) {
                client::ApiError error;
                error.what = QStringLiteral("Fork sandbox %1").arg(id);
                error.kind = client::ApiError::Kind::Server;
                error.message = QStringLiteral("%1 of %2 copies could not be made: %3")
                                    .arg(failures.size())
                                    .arg(failures.size() + copies.size())
                                    .arg(failures.join(QStringLiteral("; ")));
                emit errorOccurred(error);
            } else {
                emit message(
                    QStringLiteral("Forked %1 into %2").arg(id, ids.join(QStringLiteral(", "))));
            }
        });
    dialog->open();
}

} // namespace lizard::ui
