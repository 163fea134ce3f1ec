#include "ui/documenttabs.h"

#include "ui/documentpage.h"

#include <QTabBar>

namespace lizard::ui {

DocumentTabs::DocumentTabs(QWidget* home, QWidget* parent) : QTabWidget(parent)
{
    setObjectName(QStringLiteral("documentTabs"));
    setDocumentMode(true);
    setMovable(true);
    setTabsClosable(true);
    addTab(home, QStringLiteral("Sandboxes"));
    // The home tab has no close button.
    tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);
    tabBar()->setTabButton(0, QTabBar::LeftSide, nullptr);
    connect(this, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (auto* page = qobject_cast<DocumentPage*>(widget(index)))
            closeDocument(page);
    });
}

void DocumentTabs::openDocument(DocumentPage* page)
{
    addTab(page, page->title());
    updateTab(page);
    connect(page, &DocumentPage::titleChanged, this, [this, page] { updateTab(page); });
    setCurrentWidget(page);
    emit documentOpened(page);
}

void DocumentTabs::showDocument(DocumentPage* page)
{
    setCurrentWidget(page);
}

QList<DocumentPage*> DocumentTabs::documents() const
{
    QList<DocumentPage*> pages;
    for (int i = 0; i < count(); ++i)
        if (auto* page = qobject_cast<DocumentPage*>(widget(i)))
            pages.append(page);
    return pages;
}

DocumentPage* DocumentTabs::currentDocument() const
{
    return qobject_cast<DocumentPage*>(currentWidget());
}

bool DocumentTabs::closeDocument(DocumentPage* page)
{
    const int index = indexOf(page);
    if (index < 0 || !page->confirmClose())
        return false;
    removeTab(index);
    emit documentClosed(page);
    page->deleteLater();
    return true;
}

bool DocumentTabs::confirmCloseAll()
{
    for (DocumentPage* page : documents()) {
        setCurrentWidget(page);
        if (!page->confirmClose())
            return false;
    }
    return true;
}

void DocumentTabs::updateTab(DocumentPage* page)
{
    const int index = indexOf(page);
    if (index < 0)
        return;
    setTabText(index, page->title());
    setTabToolTip(index, page->toolTip());
}

} // namespace lizard::ui
