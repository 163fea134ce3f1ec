#include "ui/notebook/helppanel.h"

#include "notebook/ansihtml.h"
#include "notebook/cell.h"
#include "ui/notebook/cellcompleter.h"
#include "ui/notebook/celleditor.h"
#include "ui/notebook/celllistwidget.h"
#include "ui/notebook/cellwidget.h"

#include <QLabel>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using namespace lizard::notebook;

namespace {

const QString kPlaceholder = QStringLiteral(
    "Move the cursor onto a name in a Python cell to see its signature and documentation here.");

} // namespace

HelpPanel::HelpPanel(CellListWidget* cells, CodeRunner* runner, RunQueue* queue, QWidget* parent)
    : QWidget(parent), m_cells(cells), m_runner(runner), m_queue(queue), m_status(new QLabel),
      m_view(new QTextBrowser), m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("contextualHelp"));
    auto* title = new QLabel(QStringLiteral("<b>Contextual help</b>"));
    m_status->setObjectName(QStringLiteral("contextualHelpStatus"));
    m_status->setWordWrap(true);
    m_status->setText(kPlaceholder);
    m_view->setObjectName(QStringLiteral("contextualHelpText"));
    m_view->setOpenLinks(false);
    m_view->setLineWrapMode(QTextEdit::WidgetWidth);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(title);
    layout->addWidget(m_status);
    layout->addWidget(m_view, 1);

    m_debounce->setSingleShot(true);
    m_debounce->setInterval(300);
    connect(m_debounce, &QTimer::timeout, this, &HelpPanel::ask);
    connect(cells, &CellListWidget::currentChanged, this, [this] {
        followCurrentCell();
        schedule();
    });
    if (queue) {
        connect(queue, &RunQueue::busyChanged, this, [this](bool busy) {
            if (!busy && m_waitingForRun)
                schedule();
        });
    }
    followCurrentCell();
}

void HelpPanel::setDebounce(int ms)
{
    m_debounce->setInterval(ms);
}

QString HelpPanel::helpText() const
{
    return m_plain;
}

QString HelpPanel::statusText() const
{
    return m_status->text();
}

void HelpPanel::showHelp(const QString& ansiText)
{
    m_plain = stripAnsi(ansiText);
    // pre-wrap: a side panel is narrow, and docstrings have long lines.
    m_view->setHtml("<div style=\"font-family:monospace;white-space:pre-wrap\">" +
                    ansiToHtml(ansiText) + "</div>");
    setStatus({});
}

void HelpPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    schedule(); // while hidden nothing was asked: catch up with where the cursor is
}

void HelpPanel::followCurrentCell()
{
    for (const QMetaObject::Connection& c : std::as_const(m_cellConnections))
        disconnect(c);
    m_cellConnections.clear();
    CellWidget* cell = m_cells ? m_cells->currentWidget() : nullptr;
    if (!cell)
        return;
    // Typing moves the cursor too, so this covers edits as well as clicks and arrows.
    m_cellConnections << connect(cell->editor(), &QPlainTextEdit::cursorPositionChanged, this,
                                 &HelpPanel::schedule);
    if (auto* completer = cell->findChild<CellCompleter*>())
        m_cellConnections << connect(completer, &CellCompleter::helpShownAnsi, this,
                                     &HelpPanel::showHelp);
}

void HelpPanel::schedule()
{
    ++m_generation; // the cursor moved: an answer on its way is for a place it left
    if (isVisible())
        m_debounce->start();
}

void HelpPanel::ask()
{
    CellWidget* cell = m_cells ? m_cells->currentWidget() : nullptr;
    if (!isVisible() || !m_runner || !cell || !cell->cell() ||
        cell->cell()->type() != CellType::Code ||
        m_cells->codeLanguage() != QLatin1String("python"))
        return;
    const QString code = cell->editor()->toPlainText();
    const int cursor = cell->editor()->textCursor().position();
    const bool onName = (cursor > 0 && isNameChar(code.at(cursor - 1))) ||
                        (cursor < code.size() && isNameChar(code.at(cursor)));
    if (!onName)
        return;
    if (m_queue && m_queue->isBusy()) {
        // The request would wait behind the run in the kernel; ask when the run is over.
        m_waitingForRun = true;
        setStatus(QStringLiteral("A cell is running: help follows when it ends."));
        return;
    }
    m_waitingForRun = false;
    const quint64 generation = ++m_generation;
    ++m_requests;
    m_runner->inspect(code, cursor, this, [this, generation](std::optional<QString> text) {
        if (generation != m_generation)
            return;
        if (text)
            showHelp(*text);
        else // nothing known here: the last help stays, as in JupyterLab
            setStatus(m_plain.isEmpty() ? kPlaceholder : QString());
    });
}

void HelpPanel::setStatus(const QString& text)
{
    m_status->setText(text);
    m_status->setVisible(!text.isEmpty());
}

} // namespace lizard::ui::notebook
