#pragma once
// The main window's central tabs: the first tab is the home view (projects, sandboxes and the
// selected sandbox's tools) and cannot be closed; every other tab is a DocumentPage (notebook,
// file editor, preview) that closes only when the page agrees.

#include <QList>
#include <QTabWidget>

namespace lizard::ui {

class DocumentPage;

class DocumentTabs : public QTabWidget
{
    Q_OBJECT
public:
    explicit DocumentTabs(QWidget* home, QWidget* parent = nullptr);

    // Adds the page (the tabs own it) and shows it.
    void openDocument(DocumentPage* page);
    void showDocument(DocumentPage* page);
    QList<DocumentPage*> documents() const;
    DocumentPage* currentDocument() const;
    // Closes one page if it agrees; true when it closed.
    bool closeDocument(DocumentPage* page);
    // Asks every page (e.g. before quitting); true when all agree.
    bool confirmCloseAll();

signals:
    void documentOpened(lizard::ui::DocumentPage* page);
    void documentClosed(lizard::ui::DocumentPage* page);

private:
    void updateTab(DocumentPage* page);
};

} // namespace lizard::ui
