#include "ui/ports/previewpage.h"

#include "ui/ports/previewengine.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDesktopServices>
#include <QLabel>
#include <QLineEdit>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui::ports {

PreviewPage::PreviewPage(const QString& sandboxId, const client::ExposedPort& exposure,
                         QWidget* parent)
    : DocumentPage(parent), m_sandboxId(sandboxId), m_address(exposure), m_bar(new QToolBar),
      m_addressField(new QLineEdit), m_problem(new QLabel)
{
    setObjectName(QStringLiteral("previewPage"));
    m_back =
        m_bar->addAction(IconTheme::icon(QStringLiteral("go-previous")), QStringLiteral("Back"));
    m_forward =
        m_bar->addAction(IconTheme::icon(QStringLiteral("go-next")), QStringLiteral("Forward"));
    m_reload =
        m_bar->addAction(IconTheme::icon(QStringLiteral("view-refresh")), QStringLiteral("Reload"));
    m_addressField->setObjectName(QStringLiteral("previewAddress"));
    m_addressField->setClearButtonEnabled(true);
    m_bar->addWidget(m_addressField);
    m_openExternal = m_bar->addAction(IconTheme::icon(QStringLiteral("internet-web-browser")),
                                      QStringLiteral("Open in browser"));
    m_copy =
        m_bar->addAction(IconTheme::icon(QStringLiteral("edit-copy")), QStringLiteral("Copy URL"));
    const QString tokenNote =
        QStringLiteral(" (the link carries the access token, so it works in other programs)");
    m_openExternal->setToolTip(QStringLiteral("Open this page in the default browser") + tokenNote);
    m_copy->setToolTip(QStringLiteral("Copy this page's link") + tokenNote);
    m_back->setEnabled(false);
    m_forward->setEnabled(false);
    m_problem->setWordWrap(true);
    m_problem->setObjectName(QStringLiteral("previewProblem"));
    m_problem->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_bar);
    layout->addWidget(m_problem);

    if (!m_address.isValid()) {
        m_problem->setText(
            QStringLiteral("The server answered an unusable address for port %1: %2")
                .arg(exposure.port)
                .arg(models::PreviewAddress::withoutToken(QUrl(exposure.url)).toString()));
    } else if (PreviewEngine* engine = PreviewLoader::engine()) {
        m_view = engine->createView(m_address.origin(), m_address.token(), this, this);
        m_viewWidget = m_view->widget();
        layout->addWidget(m_viewWidget, 1);
    } else {
        m_problem->setText(PreviewLoader::errorString() +
                           QStringLiteral("\nOpen in browser still works."));
    }
    if (!m_view) {
        m_problem->show();
        layout->addStretch(1);
        m_reload->setEnabled(false);
    }

    connect(m_back, &QAction::triggered, this, [this] {
        if (m_view)
            m_view->back();
    });
    connect(m_forward, &QAction::triggered, this, [this] {
        if (m_view)
            m_view->forward();
    });
    connect(m_reload, &QAction::triggered, this, [this] {
        if (m_view)
            m_view->reload();
    });
    connect(m_openExternal, &QAction::triggered, this, &PreviewPage::openInBrowser);
    connect(m_copy, &QAction::triggered, this, &PreviewPage::copyUrl);
    connect(m_addressField, &QLineEdit::returnPressed, this,
            [this] { navigate(m_addressField->text()); });

    showAddress(m_address.startUrl());
    if (m_view) {
        m_loading = true;
        m_view->load(m_address.startUrl());
    }
}

PreviewPage::~PreviewPage()
{
    // The browser reports to this page: it goes first, while the page is whole.
    delete m_viewWidget;
    m_view = nullptr;
}

QString PreviewPage::title() const
{
    return m_pageTitle.isEmpty() ? QStringLiteral("Preview :%1").arg(sandboxPort()) : m_pageTitle;
}

QString PreviewPage::toolTip() const
{
    return QStringLiteral("Port %1 of sandbox %2\n%3")
        .arg(sandboxPort())
        .arg(m_sandboxId, currentUrl().toString());
}

QUrl PreviewPage::currentUrl() const
{
    const QUrl url = m_view && !m_view->url().isEmpty() ? m_view->url() : m_address.startUrl();
    return models::PreviewAddress::withoutToken(url);
}

QUrl PreviewPage::shareableUrl() const
{
    return m_address.shareable(currentUrl());
}

void PreviewPage::navigate(const QString& typed)
{
    const QUrl url = m_address.resolveTyped(typed);
    if (!url.isValid()) {
        emit message(QStringLiteral("Not an address: ") + typed);
        return;
    }
    if (m_view) {
        m_loading = true;
        m_view->load(url);
    }
    showAddress(url);
}

void PreviewPage::copyUrl()
{
    QApplication::clipboard()->setText(shareableUrl().toString(QUrl::FullyEncoded));
    emit message(QStringLiteral("Copied the link to port %1 (it carries the access token)")
                     .arg(sandboxPort()));
}

void PreviewPage::openInBrowser()
{
    if (!QDesktopServices::openUrl(shareableUrl()))
        emit message(QStringLiteral("No browser could be started for ") + currentUrl().toString());
}

void PreviewPage::showAddress(const QUrl& url)
{
    // Never the token, whatever the page navigated to.
    m_addressField->setText(models::PreviewAddress::withoutToken(url).toString());
    m_addressField->setCursorPosition(0);
}

void PreviewPage::previewUrlChanged(const QUrl& url)
{
    // Back, forward and links update the field, unless the user is typing an address there.
    if (!m_addressField->isModified())
        showAddress(url);
    emit titleChanged(); // the tooltip shows the address
}

void PreviewPage::previewTitleChanged(const QString& title)
{
    // Chromium shows the address as the title of a page without one; keep ours then.
    const QString host = m_address.origin().host();
    m_pageTitle = title.contains(host) ? QString() : title;
    emit titleChanged();
}

void PreviewPage::previewLoadFinished(bool ok)
{
    m_loading = false;
    emit loadFinished(ok);
}

void PreviewPage::previewHistoryChanged()
{
    m_back->setEnabled(m_view && m_view->canGoBack());
    m_forward->setEnabled(m_view && m_view->canGoForward());
}

} // namespace lizard::ui::ports
