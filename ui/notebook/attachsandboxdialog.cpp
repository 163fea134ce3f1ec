#include "ui/notebook/attachsandboxdialog.h"

#include "models/sandboxactions.h"
#include "models/timeformat.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

AttachSandboxDialog::AttachSandboxDialog(models::SandboxActions* actions, const QString& projectId,
                                         const QString& currentId, QWidget* parent)
    : QDialog(parent), m_actions(actions), m_projectId(projectId), m_currentId(currentId),
      m_status(new QLabel), m_list(new QTreeWidget),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel))
{
    setObjectName(QStringLiteral("attachSandboxDialog"));
    setWindowTitle(QStringLiteral("Attach to sandbox"));
    m_status->setWordWrap(true);
    m_list->setHeaderLabels({QStringLiteral("Sandbox"), QStringLiteral("Template"),
                             QStringLiteral("State"), QStringLiteral("Age"),
                             QStringLiteral("Ends in")});
    m_list->setRootIsDecorated(false);
    m_list->setAllColumnsShowFocus(true);
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Attach"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    QPushButton* again =
        m_buttons->addButton(QStringLiteral("Refresh"), QDialogButtonBox::ResetRole);
    connect(again, &QPushButton::clicked, this, &AttachSandboxDialog::refresh);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(
        new QLabel(QStringLiteral("The notebook runs its next cells in the sandbox you pick; its "
                                  "cells and outputs stay, variables start empty there.")));
    layout->addWidget(m_list, 1);
    layout->addWidget(m_status);
    layout->addWidget(m_buttons);
    connect(m_list, &QTreeWidget::itemSelectionChanged, this, [this] {
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!selectedSandboxId().isEmpty());
    });
    connect(m_list, &QTreeWidget::itemDoubleClicked, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    resize(640, 320);
    refresh();
}

QString AttachSandboxDialog::formatAge(qint64 seconds)
{
    if (seconds < 60)
        return QStringLiteral("%1 s").arg(std::max<qint64>(0, seconds));
    const qint64 minutes = seconds / 60;
    if (minutes < 60)
        return QStringLiteral("%1 min").arg(minutes);
    if (minutes < 24 * 60)
        return QStringLiteral("%1 h %2 min")
            .arg(minutes / 60)
            .arg(minutes % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1 d %2 h").arg(minutes / (24 * 60)).arg((minutes / 60) % 24);
}

void AttachSandboxDialog::refresh()
{
    if (!m_actions) {
        m_status->setText(
            QStringLiteral("Not connected: connect to a server to list its sandboxes."));
        emit listed();
        return;
    }
    m_status->setText(QStringLiteral("Listing the project's sandboxes…"));
    m_actions->list(m_projectId, this, [this](client::Outcome<QList<client::SandboxInfo>> outcome) {
        const QString selected = selectedSandboxId();
        m_list->clear();
        if (!outcome) {
            m_status->setText(QStringLiteral("Listing sandboxes failed: %1")
                                  .arg(outcome.error().toDisplayString()));
            emit listed();
            return;
        }
        const QDateTime now = QDateTime::currentDateTimeUtc();
        for (const client::SandboxInfo& info : outcome.value()) {
            if (info.sandboxId == m_currentId ||
                (info.status != u"running" && info.status != u"paused"))
                continue;
            auto* item = new QTreeWidgetItem(
                m_list,
                {info.sandboxId, info.templateName, info.status,
                 info.startedAt.isValid() ? formatAge(info.startedAt.secsTo(now)) : QString(),
                 models::formatTimeLeft(info.endAt, now)});
            item->setData(IdColumn, Qt::UserRole, info.sandboxId);
            if (info.sandboxId == selected)
                item->setSelected(true);
        }
        m_status->setText(
            m_list->topLevelItemCount() == 0
                ? QStringLiteral(
                      "No other running sandbox in this project: use Run on a new sandbox.")
                : QString());
        emit listed();
    });
}

QString AttachSandboxDialog::selectedSandboxId() const
{
    const QList<QTreeWidgetItem*> items = m_list->selectedItems();
    return items.isEmpty() ? QString() : items.first()->data(IdColumn, Qt::UserRole).toString();
}

QString AttachSandboxDialog::statusText() const
{
    return m_status->text();
}

} // namespace lizard::ui::notebook
