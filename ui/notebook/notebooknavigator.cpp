#include "ui/notebook/notebooknavigator.h"

#include "notebook/notebookfile.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/findbar.h"
#include "ui/notebook/notebookfinder.h"
#include "ui/notebook/notebookpage.h"
#include "ui/notebook/tocpanel.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSplitter>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using namespace lizard::notebook;

namespace {
QAction* pageAction(NotebookPage* page, const QString& text, const QString& keys,
                    const QString& name)
{
    auto* action = new QAction(text, page);
    action->setObjectName(name);
    action->setShortcut(QKeySequence(keys));
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut); // this tab's, not another's
    page->addAction(action);
    return action;
}
} // namespace

NotebookNavigator::NotebookNavigator(NotebookPage* page)
    : QObject(page), m_page(page),
      m_finder(new NotebookFinder(page->document(), page->cells(), this)),
      m_splitter(page->findChild<QSplitter*>(QStringLiteral("notebookSplitter"))),
      m_find(pageAction(page, QStringLiteral("Find…"), QStringLiteral("Ctrl+F"),
                        QStringLiteral("findInNotebook"))),
      m_replace(pageAction(page, QStringLiteral("Replace…"), QStringLiteral("Ctrl+H"),
                           QStringLiteral("replaceInNotebook"))),
      m_tocAction(pageAction(page, QStringLiteral("Table of contents"),
                             QStringLiteral("Ctrl+Shift+K"), QStringLiteral("showTableOfContents")))
{
    m_tocAction->setCheckable(true);
    m_tocAction->setToolTip(QStringLiteral("The markdown headings, beside the cells"));
    connect(m_tocAction, &QAction::toggled, this, [this](bool on) {
        if (!on && !m_toc)
            return;
        tocPanel()->setVisible(on);
        // A panel first shown gets no width from the splitter: take it from the cells.
        if (on && m_splitter && m_splitter->sizes().value(0) < 50) {
            QList<int> sizes = m_splitter->sizes();
            const int want = std::min(240, m_splitter->width() / 4);
            sizes[0] = want;
            sizes[1] = std::max(100, sizes[1] - want);
            m_splitter->setSizes(sizes);
        }
    });
    connect(m_find, &QAction::triggered, this, [this] { findBar()->openFind(); });
    connect(m_replace, &QAction::triggered, this, [this] { findBar()->openReplace(); });
    QAction* next = pageAction(page, QStringLiteral("Find next"), QStringLiteral("F3"),
                               QStringLiteral("findNextMatch"));
    QAction* previous = pageAction(page, QStringLiteral("Find previous"),
                                   QStringLiteral("Shift+F3"), QStringLiteral("findPreviousMatch"));
    connect(next, &QAction::triggered, this, [this] { findStep(true); });
    connect(previous, &QAction::triggered, this, [this] { findStep(false); });
}

void NotebookNavigator::findStep(bool forward)
{
    FindBar* bar = findBar();
    if (!bar->isVisible())
        bar->openFind();
    else if (forward)
        bar->findNext();
    else
        bar->findPrevious();
}

FindBar* NotebookNavigator::findBar()
{
    if (!m_findBar) {
        m_findBar = new FindBar(m_finder, m_page); // hidden until opened
        // Under the toolbar, above the cells.
        if (auto* layout = qobject_cast<QVBoxLayout*>(m_page->layout()))
            layout->insertWidget(layout->indexOf(m_page->toolBar()) + 1, m_findBar);
    }
    return m_findBar;
}

TocPanel* NotebookNavigator::tocPanel()
{
    if (!m_toc) {
        m_toc = new TocPanel(m_page->document(), m_page->cells(), m_page);
        m_toc->hide(); // explicitly: the splitter then keeps it hidden until the action shows it
        if (m_splitter) {
            m_splitter->insertWidget(0, m_toc);
            m_splitter->setStretchFactor(0, 0);
        }
    }
    return m_toc;
}

MaybeError NotebookNavigator::exportTo(ExportFormat format, const QString& path) const
{
    QString title = m_page->title();
    if (title.endsWith(u'*'))
        title.chop(1);
    return exportNotebook(m_page->document()->toData(), title, format, path);
}

bool NotebookNavigator::exportInteractive(ExportFormat format)
{
    const bool html = format == ExportFormat::Html;
    const QString suffix = html ? QStringLiteral(".html") : QStringLiteral(".py");
    const QString notebook = m_page->session()->file()->path();
    QString start =
        notebook.isEmpty() ? QDir::homePath() + u'/' + m_page->title().remove(u'*') : notebook;
    start = QFileInfo(start).dir().filePath(QFileInfo(start).completeBaseName() + suffix);
    QString path = QFileDialog::getSaveFileName(
        m_page, html ? QStringLiteral("Export as HTML") : QStringLiteral("Export as Python script"),
        start,
        html ? QStringLiteral("Web pages (*.html)") : QStringLiteral("Python scripts (*.py)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(suffix, Qt::CaseInsensitive))
        path += suffix;
    if (const MaybeError error = exportTo(format, path)) {
        QMessageBox::warning(
            m_page, QStringLiteral("Export notebook"),
            QStringLiteral("The notebook was not exported (it is unchanged).\n\n%1")
                .arg(error->message()));
        return false;
    }
    return true;
}

} // namespace lizard::ui::notebook
