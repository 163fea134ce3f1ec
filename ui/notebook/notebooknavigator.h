#pragma once
// Ways around a big notebook, added to a NotebookPage: find and replace (Ctrl+F, Ctrl+H, F3,
// Shift+F3) with a bar above the cells, the table of contents beside them (Ctrl+Shift+K, as in
// JupyterLab), and export to HTML or a Python script. The shortcuts belong to the page (its
// tab only), like its other keys.

#include "notebook/notebookerror.h"
#include "notebook/notebookexport.h"

#include <QObject>

class QAction;
class QSplitter;

namespace lizard::ui::notebook {

class FindBar;
class NotebookFinder;
class NotebookPage;
class TocPanel;

class NotebookNavigator : public QObject
{
    Q_OBJECT
public:
    explicit NotebookNavigator(NotebookPage* page);

    // The find bar and the table of contents are made when first asked for (their keys, their
    // action), not with every page: most pages never show them.
    FindBar* findBar();
    NotebookFinder* finder() const { return m_finder; }
    TocPanel* tocPanel();
    QAction* findAction() const { return m_find; }
    QAction* replaceAction() const { return m_replace; }
    QAction* tocAction() const { return m_tocAction; }

    // The notebook as it is now (unsaved edits included) written to path.
    lizard::notebook::MaybeError exportTo(lizard::notebook::ExportFormat format,
                                          const QString& path) const;
    // Asks for the path, shows the error if the write fails. true when written.
    bool exportInteractive(lizard::notebook::ExportFormat format);

private:
    // F3 and Shift+F3: the next or previous match, or the bar when it is closed.
    void findStep(bool forward);

    NotebookPage* m_page;
    NotebookFinder* m_finder;
    QSplitter* m_splitter; // the page's, where the table of contents goes
    FindBar* m_findBar = nullptr;
    TocPanel* m_toc = nullptr;
    QAction* m_find;
    QAction* m_replace;
    QAction* m_tocAction;
};

} // namespace lizard::ui::notebook
