#include "ui/ports/portspanel.h"

#include "models/exposurelist.h"
#include "models/portlistmodel.h"
#include "models/previewaddress.h"
#include "ui/documenttabs.h"
#include "ui/ports/previewpage.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QTableView>
#include <QTime>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui::ports {

using models::PortListModel;

PortsPanel::PortsPanel(DocumentTabs* documents, QWidget* parent)
    : QWidget(parent), m_documents(documents), m_model(new PortListModel(this)),
      m_view(new QTableView), m_status(new QLabel)
{
    setObjectName(QStringLiteral("portsPanel"));
    auto* bar = new QToolBar;
    m_preview = bar->addAction(IconTheme::icon(QStringLiteral("lizard-preview")),
                               QStringLiteral("Preview"));
    m_preview->setToolTip(
        QStringLiteral("Open the port in a tab of the app (exposes it if needed)"));
    m_openExternal = bar->addAction(IconTheme::icon(QStringLiteral("internet-web-browser")),
                                    QStringLiteral("Open in browser"));
    m_copyUrl =
        bar->addAction(IconTheme::icon(QStringLiteral("edit-copy")), QStringLiteral("Copy URL"));
    const QString tokenNote =
        QStringLiteral(" (the link carries the access token; exposes the port if needed)");
    m_openExternal->setToolTip(QStringLiteral("Open the port in the default browser") + tokenNote);
    m_copyUrl->setToolTip(QStringLiteral("Copy the port's link") + tokenNote);
    m_unexpose =
        bar->addAction(IconTheme::icon(QStringLiteral("list-remove")), QStringLiteral("Unexpose"));
    m_unexpose->setToolTip(
        QStringLiteral("End access to the port: its link and token stop working"));
    bar->addSeparator();
    m_expose =
        bar->addAction(IconTheme::icon(QStringLiteral("list-add")), QStringLiteral("Expose port…"));
    m_refresh =
        bar->addAction(IconTheme::icon(QStringLiteral("view-refresh")), QStringLiteral("Refresh"));

    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnWidth(PortListModel::PortColumn, 70);
    m_view->setColumnWidth(PortListModel::StateColumn, 100);
    m_view->setColumnWidth(PortListModel::AddressColumn, 160);
    m_view->setColumnWidth(PortListModel::ProcessColumn, 160);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_status->setObjectName(QStringLiteral("portsStatus"));
    m_status->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);

    connect(m_preview, &QAction::triggered, this, [this] { previewPort(currentPort()); });
    connect(m_unexpose, &QAction::triggered, this, [this] { unexposePort(currentPort()); });
    connect(m_copyUrl, &QAction::triggered, this, [this] { copyUrl(currentPort()); });
    connect(m_openExternal, &QAction::triggered, this, [this] { openInBrowser(currentPort()); });
    connect(m_expose, &QAction::triggered, this, &PortsPanel::exposePrompt);
    connect(m_refresh, &QAction::triggered, m_model, &PortListModel::refresh);
    connect(m_view, &QTableView::doubleClicked, this, [this] { previewPort(currentPort()); });
    connect(m_view, &QWidget::customContextMenuRequested, this, &PortsPanel::showContextMenu);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &PortsPanel::updateActions);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &PortsPanel::updateActions);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, &PortsPanel::updateActions);
    connect(m_model, &PortListModel::refreshed, this, [this] {
        m_lastError.clear();
        updateStatus();
    });
    connect(m_model, &PortListModel::refreshFailed, this, [this](const client::ApiError& e) {
        // Shown in the panel only: polling would otherwise repeat it in the banner every few
        // seconds.
        m_lastError = e.toDisplayString();
        updateStatus();
    });
    updateActions();
    updateStatus();
}

void PortsPanel::setBackend(client::LizardApi* api)
{
    m_api = api;
    // Exposures belong to a connection: a new one starts with none.
    delete m_exposures;
    m_exposures = api ? new models::ExposureList(api, this) : nullptr;
    if (m_exposures)
        connect(m_exposures, &models::ExposureList::failed, this, &PortsPanel::errorOccurred);
    m_model->setBackend(api, m_exposures);
    showSandbox(QString());
}

void PortsPanel::showSandbox(const QString& sandboxId)
{
    m_sandboxId = sandboxId;
    m_lastError.clear();
    m_model->setSandboxId(m_api ? sandboxId : QString());
    updateActions();
    updateStatus();
}

void PortsPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_model->setPolling(true);
    m_model->refresh();
}

void PortsPanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_model->setPolling(false);
}

int PortsPanel::currentPort() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    const PortListModel::Row* r = rows.isEmpty() ? nullptr : m_model->rowAt(rows.first().row());
    return r ? r->port : 0;
}

void PortsPanel::selectPort(int port)
{
    const int row = m_model->rowOf(port);
    if (row >= 0)
        m_view->selectRow(row);
}

QString PortsPanel::statusText() const
{
    return m_status->text();
}

void PortsPanel::updateStatus()
{
    QString text;
    if (!m_api)
        text = QStringLiteral("Not connected.");
    else if (m_sandboxId.isEmpty())
        text = QStringLiteral("Select a sandbox to see its ports.");
    else if (!m_lastError.isEmpty())
        text = m_lastError;
    else if (!m_model->hasScanned())
        text = QStringLiteral("Looking for listening ports…");
    else if (m_model->rowCount() == 0)
        text = QStringLiteral(
            "No process in this sandbox listens on a TCP port. Start a server in the Console, "
            "e.g. python3 -m http.server 8000.");
    else
        text = QStringLiteral(
                   "Checked %1. Ports are reached through lizard's proxy with an access token; "
                   "Preview opens them here.")
                   .arg(QTime::currentTime().toString(QStringLiteral("HH:mm:ss")));
    m_status->setText(text);
}

void PortsPanel::updateActions()
{
    const int port = currentPort();
    const bool usable = port > 0 && m_exposures;
    const bool exposed = usable && m_exposures->exposure(m_sandboxId, port).has_value();
    m_preview->setEnabled(usable);
    m_copyUrl->setEnabled(usable);
    m_openExternal->setEnabled(usable);
    m_unexpose->setEnabled(exposed);
    m_expose->setEnabled(m_exposures && !m_sandboxId.isEmpty());
    m_refresh->setEnabled(m_api && !m_sandboxId.isEmpty());
}

void PortsPanel::withExposure(int port, std::function<void(const client::ExposedPort&)> then)
{
    if (port <= 0 || !m_exposures || m_sandboxId.isEmpty())
        return;
    const QString sandboxId = m_sandboxId;
    QPointer<PortsPanel> self(this);
    m_exposures->ensureExposed(
        sandboxId, port, [self, then = std::move(then)](client::Outcome<client::ExposedPort> o) {
            if (self && o.ok()) // failures reach errorOccurred through ExposureList::failed
                then(o.value());
            if (self)
                self->updateActions();
        });
}

PreviewPage* PortsPanel::openPreviewFor(int port) const
{
    if (!m_documents)
        return nullptr;
    for (DocumentPage* page : m_documents->documents()) {
        auto* preview = qobject_cast<PreviewPage*>(page);
        if (preview && preview->sandboxId() == m_sandboxId && preview->sandboxPort() == port)
            return preview;
    }
    return nullptr;
}

void PortsPanel::previewPort(int port)
{
    if (PreviewPage* open = openPreviewFor(port)) {
        m_documents->showDocument(open);
        return;
    }
    const QString sandboxId = m_sandboxId;
    withExposure(port, [this, sandboxId](const client::ExposedPort& e) {
        auto* page = new PreviewPage(sandboxId, e);
        connect(page, &PreviewPage::message, this, &PortsPanel::message);
        if (m_documents) {
            m_documents->openDocument(page);
        } else {
            page->setAttribute(Qt::WA_DeleteOnClose);
            page->resize(1000, 700);
            page->show();
        }
        emit previewOpened(page);
    });
}

void PortsPanel::unexposePort(int port)
{
    if (port <= 0 || !m_exposures)
        return;
    m_exposures->unexpose(m_sandboxId, port, [this, port](bool ok) {
        if (ok)
            emit message(QStringLiteral("Port %1 is no longer exposed").arg(port));
        updateActions();
    });
}

void PortsPanel::copyUrl(int port)
{
    withExposure(port, [this](const client::ExposedPort& e) {
        QApplication::clipboard()->setText(e.url);
        emit message(
            QStringLiteral("Copied the link to port %1 (it carries the access token)").arg(e.port));
    });
}

void PortsPanel::openInBrowser(int port)
{
    withExposure(port, [this](const client::ExposedPort& e) {
        if (!QDesktopServices::openUrl(QUrl(e.url)))
            emit message(QStringLiteral("No browser could be started for ") +
                         models::PreviewAddress(e).startUrl().toString());
    });
}

void PortsPanel::exposePrompt()
{
    bool ok = false;
    const int suggested = currentPort() > 0 ? currentPort() : 8000;
    const int port = QInputDialog::getInt(this, QStringLiteral("Expose port"),
                                          QStringLiteral("Port in the sandbox (1–65535):"),
                                          suggested, 1, 65535, 1, &ok);
    if (!ok || !m_exposures || m_sandboxId.isEmpty())
        return;
    m_exposures->expose(m_sandboxId, port, [this, port](client::Outcome<client::ExposedPort> o) {
        if (o.ok()) {
            selectPort(port);
            emit message(QStringLiteral("Port %1 exposed").arg(port));
        }
    });
}

void PortsPanel::showContextMenu(const QPoint& pos)
{
    if (currentPort() <= 0)
        return;
    QMenu menu(this);
    menu.addAction(m_preview);
    menu.addAction(m_openExternal);
    menu.addAction(m_copyUrl);
    menu.addSeparator();
    menu.addAction(m_unexpose);
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace lizard::ui::ports
