#include "ui/activity/activitypanel.h"

#include "models/activity/activityfiltermodel.h"
#include "models/activity/activitylistmodel.h"
#include "notebook/activitynotebook.h"
#include "notebook/ipynbwriter.h"
#include "ui/activity/activityentryview.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

namespace lizard::ui::activity {

using models::ActivityListModel;

ActivityPanel::ActivityPanel(QWidget* parent)
    : QWidget(parent), m_model(new ActivityListModel(this)),
      m_filter(new models::ActivityFilterModel(this)), m_kind(new QComboBox),
      m_search(new QLineEdit), m_showHousekeeping(new QCheckBox(tr("App's own"))),
      m_openNotebook(new QPushButton(tr("Open as notebook"))),
      m_export(new QPushButton(tr("Export .ipynb…"))), m_unavailable(new QLabel),
      m_list(new QListView), m_scroll(new QScrollArea), m_entry(new ActivityEntryView)
{
    m_filter->setSourceModel(m_model);
    using G = ActivityListModel::Group;
    m_kind->addItem(tr("Everything"), 0);
    m_kind->addItem(tr("Commands"), int(G::Command));
    m_kind->addItem(tr("Code"), int(G::Code));
    m_kind->addItem(tr("Files"), int(G::File));
    m_kind->addItem(tr("Lifecycle"), int(G::Lifecycle));
    m_search->setPlaceholderText(tr("Search commands, code, paths, output"));
    m_search->setClearButtonEnabled(true);
    m_openNotebook->setToolTip(tr("A notebook of this context's code runs, on the same context "
                                  "in the sandbox: the agent's variables are there"));
    m_showHousekeeping->setToolTip(tr("Also show this app's own background commands (the Ports "
                                      "tab's scan of listening ports)"));
    auto* bar = new QHBoxLayout;
    bar->addWidget(m_kind);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_showHousekeeping);
    bar->addWidget(m_openNotebook);
    bar->addWidget(m_export);

    m_unavailable->setObjectName(QStringLiteral("activityUnavailable"));
    m_unavailable->setWordWrap(true);
    m_unavailable->hide();
    m_list->setObjectName(QStringLiteral("activityList"));
    m_list->setModel(m_filter);
    m_list->setUniformItemSizes(true); // 50 entries a second: no per-row size pass
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_scroll->setWidget(m_entry);
    m_scroll->setWidgetResizable(true);
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(m_list);
    split->addWidget(m_scroll);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    // The list's size hint would take it all: the entry gets the larger part.
    split->setSizes({400, 600});
    split->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(m_unavailable);
    layout->addWidget(split, 1);

    connect(m_kind, &QComboBox::currentIndexChanged, this,
            [this] { m_filter->setGroups(m_kind->currentData().toInt()); });
    connect(m_search, &QLineEdit::textChanged, m_filter, &models::ActivityFilterModel::setSearch);
    connect(m_showHousekeeping, &QCheckBox::toggled, m_filter,
            &models::ActivityFilterModel::setShowHousekeeping);
    connect(m_model, &ActivityListModel::entriesAppended, this, &ActivityPanel::onAppended);
    connect(m_model, &ActivityListModel::modelReset, this, [this] {
        m_entry->clear();
        updateButtons();
    });
    connect(m_model, &ActivityListModel::unavailable, this, [this](const QString& text) {
        m_unavailable->setText(text);
        m_unavailable->show();
        updateButtons();
    });
    connect(m_model, &ActivityListModel::errorOccurred, this, &ActivityPanel::errorOccurred);
    connect(m_list->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &ActivityPanel::onSelected);
    connect(m_entry, &ActivityEntryView::showFileRequested, this,
            [this](const QString& path) { emit showFileRequested(m_sandboxId, path); });
    connect(m_entry, &ActivityEntryView::showChangesRequested, this,
            [this](const QDateTime& from, const QDateTime& to, const QString& what) {
                emit showChangesRequested(m_sandboxId, from, to, what);
            });
    connect(m_openNotebook, &QPushButton::clicked, this, &ActivityPanel::openAsNotebook);
    connect(m_export, &QPushButton::clicked, this, &ActivityPanel::exportInteractive);
    updateButtons();
}

void ActivityPanel::setApi(client::LizardApi* api)
{
    m_model->setApi(api);
}

void ActivityPanel::showSandbox(const QString& sandboxId)
{
    if (sandboxId == m_sandboxId)
        return;
    m_sandboxId = sandboxId;
    m_unavailable->hide();
    m_model->setSandbox(sandboxId);
}

void ActivityPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_model->setActive(true);
}

void ActivityPanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_model->setActive(false);
}

void ActivityPanel::onAppended()
{
    // Follow the end, as a console does, unless the user scrolled up to read.
    QScrollBar* bar = m_list->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    if (atEnd)
        m_list->scrollToBottom();
    updateButtons();
}

void ActivityPanel::onSelected()
{
    const QModelIndex i = m_filter->mapToSource(m_list->currentIndex());
    if (!i.isValid())
        return m_entry->clear();
    m_entry->showEntry(m_model->entry(i.row()));
    updateButtons();
}

QString ActivityPanel::currentContextId() const
{
    const QModelIndex i = m_filter->mapToSource(m_list->currentIndex());
    if (i.isValid() && m_model->entry(i.row()).kind == u"runCode")
        return lizard::notebook::activityContextId(m_model->entry(i.row()));
    const auto& all = m_model->entries();
    for (auto it = all.rbegin(); it != all.rend(); ++it) {
        if (it->kind == u"runCode")
            return lizard::notebook::activityContextId(*it);
    }
    return {};
}

void ActivityPanel::updateButtons()
{
    const bool runs = !currentContextId().isEmpty();
    m_openNotebook->setEnabled(runs);
    m_export->setEnabled(runs);
    const QString ctx = currentContextId();
    m_export->setToolTip(runs ? tr("The code runs of context %1 as a Jupyter notebook").arg(ctx)
                              : tr("No code was run in this sandbox yet"));
}

QString ActivityPanel::exportTo(const QString& path) const
{
    const QString ctx = currentContextId();
    if (ctx.isEmpty())
        return tr("No code was run in this sandbox yet");
    if (auto error = lizard::notebook::IpynbWriter::writeFile(
            path, lizard::notebook::notebookFromActivity(m_model->entries(), ctx)))
        return error->message();
    return {};
}

void ActivityPanel::exportInteractive()
{
    const QString ctx = currentContextId();
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export .ipynb"), ctx + QStringLiteral(".ipynb"),
                                     tr("Jupyter notebooks (*.ipynb)"));
    if (path.isEmpty())
        return;
    const QString error = exportTo(path);
    emit message(error.isEmpty() ? tr("Exported the runs of %1 to %2").arg(ctx, path)
                                 : tr("Export failed: %1").arg(error));
}

void ActivityPanel::openAsNotebook()
{
    const QString ctx = currentContextId();
    if (ctx.isEmpty())
        return;
    const auto cells = lizard::notebook::notebookFromActivity(m_model->entries(), ctx);
    QString language = QStringLiteral("python");
    for (const auto& e : m_model->entries())
        if (e.kind == u"runCode" && lizard::notebook::activityContextId(e) == ctx)
            language = lizard::notebook::activityLanguage(e);
    emit openNotebookRequested(m_sandboxId, cells, ctx, language);
}

} // namespace lizard::ui::activity
