#include "ui/lifecycle/cleanupdialog.h"

#include "models/lifecycle/cleanuplist.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace lizard::ui::lifecycle {

CleanupDialog::CleanupDialog(models::CleanupListModel* model, QWidget* parent)
    : QDialog(parent), m_model(model), m_view(new QTableView(this)), m_summary(new QLabel(this)),
      m_result(new QLabel(this)), m_kill(new QPushButton(QStringLiteral("Kill selected…"), this)),
      m_refresh(new QPushButton(QStringLiteral("Refresh"), this))
{
    setWindowTitle(QStringLiteral("Clean up"));
    auto* intro = new QLabel(
        QStringLiteral("Sandboxes left running or paused in every project, oldest first. A paused "
                       "sandbox still holds its memory and disk."),
        this);
    intro->setWordWrap(true);
    m_summary->setObjectName(QStringLiteral("cleanupSummary"));
    m_result->setObjectName(QStringLiteral("cleanupResult"));
    m_result->setWordWrap(true);
    m_result->hide();
    m_view->setObjectName(QStringLiteral("cleanupTable"));
    m_view->setModel(model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_kill->setObjectName(QStringLiteral("cleanupKill"));
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_kill);
    buttons->addWidget(m_refresh);
    buttons->addStretch(1);
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_summary);
    layout->addWidget(m_result);
    layout->addLayout(buttons);
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_refresh, &QPushButton::clicked, model, &models::CleanupListModel::refresh);
    connect(m_kill, &QPushButton::clicked, this, &CleanupDialog::confirmKill);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &CleanupDialog::updateButtons);
    connect(model, &QAbstractItemModel::modelReset, this, &CleanupDialog::updateButtons);
    connect(model, &models::CleanupListModel::refreshed, this,
            [this] { m_summary->setText(m_model->summary()); });
    connect(model, &models::CleanupListModel::failed, this, [this](const client::ApiError& error) {
        m_summary->setText(QStringLiteral("Could not list the sandboxes: ") +
                           error.toDisplayString());
        emit errorOccurred(error);
    });
    connect(model, &models::CleanupListModel::killed, this,
            [this](int count, const QStringList& failures) {
                QString text = QStringLiteral("Killed %1.").arg(count);
                if (!failures.isEmpty())
                    text += QStringLiteral(" %1 could not be killed:\n").arg(failures.size()) +
                            failures.join(QLatin1Char('\n'));
                m_result->setText(text);
                m_result->show();
            });
    m_summary->setText(model->isLoading() ? QStringLiteral("Listing…") : model->summary());
    resize(900, 460);
    updateButtons();
}

QString CleanupDialog::summaryText() const
{
    return m_summary->text();
}

QStringList CleanupDialog::selectedSandboxIds() const
{
    QStringList ids;
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    for (const QModelIndex& row : rows)
        ids << row.data(models::CleanupListModel::SandboxIdRole).toString();
    return ids;
}

void CleanupDialog::updateButtons()
{
    const int n = int(m_view->selectionModel()->selectedRows().size());
    m_kill->setEnabled(n > 0);
    m_kill->setText(n > 1 ? QStringLiteral("Kill %1 selected…").arg(n)
                          : QStringLiteral("Kill selected…"));
}

void CleanupDialog::confirmKill()
{
    const QStringList ids = selectedSandboxIds();
    if (ids.isEmpty())
        return;
    const QStringList named = ids.mid(0, 8);
    const QString question =
        QStringLiteral("Kill %1 sandbox%2? Their processes stop and their files are deleted.\n\n"
                       "%3%4")
            .arg(ids.size())
            .arg(ids.size() == 1 ? QString() : QStringLiteral("es"))
            .arg(named.join(QLatin1Char('\n')))
            .arg(ids.size() > named.size()
                     ? QStringLiteral("\nand %1 more").arg(ids.size() - named.size())
                     : QString());
    if (QMessageBox::question(this, QStringLiteral("Kill sandboxes"), question,
                              QMessageBox::Yes | QMessageBox::Cancel,
                              QMessageBox::Cancel) == QMessageBox::Yes)
        killSelected();
}

void CleanupDialog::killSelected()
{
    const QStringList ids = selectedSandboxIds();
    if (ids.isEmpty())
        return;
    m_kill->setEnabled(false);
    m_result->setText(QStringLiteral("Killing %1…").arg(ids.size()));
    m_result->show();
    m_model->kill(ids);
}

} // namespace lizard::ui::lifecycle
