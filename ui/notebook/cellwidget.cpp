#include "ui/notebook/cellwidget.h"

#include "ui/notebook/cellpalette.h"
#include "ui/notebook/outputarea.h"
#include "ui/notebook/richtextview.h"
#include "ui/theme/apptheme.h"
#include "ui/theme/themecolors.h"

#include <QApplication>
#include <QGridLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

using lizard::notebook::Cell;
using lizard::notebook::CellStatus;
using lizard::notebook::CellType;

CellWidget::CellWidget(Cell* cell, const QString& codeLanguage, QWidget* parent)
    : QWidget(parent), m_cell(cell), m_codeLanguage(codeLanguage), m_bar(new QWidget),
      m_prompt(new QLabel), m_status(new QLabel), m_editor(new CellEditor),
      m_outputs(new OutputArea(cell, this)) // parented: it shows itself when it has outputs
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 2, 6, 2);
    grid->setHorizontalSpacing(4);
    grid->setVerticalSpacing(2);
    m_bar->setFixedWidth(4);
    m_bar->setAutoFillBackground(true);
    m_prompt->setFixedWidth(OutputArea::promptWidth(fontMetrics()));
    m_prompt->setAlignment(Qt::AlignRight | Qt::AlignTop);
    m_prompt->setFont(monospaced(m_prompt->font()));
    // The editor's border: a plain box in the palette's WindowText, its tint the Base.
    m_editor->setFrameStyle(QFrame::Box | QFrame::Plain);
    m_editor->setLineWidth(1);
    m_status->setAlignment(Qt::AlignRight | Qt::AlignTop);
    QFont small = m_status->font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    m_status->setFont(small);
    auto* promptBox = new QWidget;
    auto* promptLayout = new QVBoxLayout(promptBox);
    promptLayout->setContentsMargins(0, 4, 0, 0);
    promptLayout->setSpacing(0);
    promptLayout->addWidget(m_prompt);
    promptLayout->addWidget(m_status);
    promptLayout->addStretch();
    grid->addWidget(m_bar, 0, 0, 2, 1);
    grid->addWidget(promptBox, 0, 1);
    auto* source = new QWidget;
    m_sourceLayout = new QVBoxLayout(source);
    m_sourceLayout->setContentsMargins(0, 0, 0, 0);
    m_sourceLayout->setSpacing(0);
    m_sourceLayout->addWidget(m_editor);
    grid->addWidget(source, 0, 2);
    grid->addWidget(m_outputs, 1, 1, 1, 2);
    grid->setColumnStretch(2, 1);

    m_editor->setPlainText(cell->source());
    connect(m_editor, &QPlainTextEdit::textChanged, this, &CellWidget::syncToCell);
    connect(m_editor, &CellEditor::focused, this, [this] { emit editorFocused(this); });
    connect(cell, &Cell::sourceChanged, this, &CellWidget::syncFromCell);
    connect(cell, &Cell::typeChanged, this, &CellWidget::updateType);
    connect(cell, &Cell::statusChanged, this, &CellWidget::updateStatus);
    connect(cell, &Cell::executionCountChanged, this, &CellWidget::updateStatus);
    updateType();
    AppTheme::follow(this, [this] {
        applyColours();
        m_outputs->applyColours();
    });
}

void CellWidget::applyColours()
{
    const ThemeColors& c = ThemeColors::current();
    setPaletteColour(m_prompt, QPalette::WindowText, c.promptIn);
    setPaletteColour(m_status, QPalette::WindowText, statusColour());
    const QColor bar =
        !m_selected ? QColor(Qt::transparent) : (m_editing ? c.editorEditBorder : c.cellSelected);
    setPaletteColour(m_bar, QPalette::Window, bar);
    setPaletteColour(m_editor, QPalette::WindowText,
                     m_editing ? c.editorEditBorder : c.editorBorder);
    setPaletteColour(m_editor, QPalette::Base,
                     m_editing ? QApplication::palette().color(QPalette::Base)
                               : c.editorCommandBackground);
}

QColor CellWidget::statusColour() const
{
    const ThemeColors& c = ThemeColors::current();
    switch (m_cell ? m_cell->status() : CellStatus::Idle) {
    case CellStatus::Queued:
        return c.muted;
    case CellStatus::Running:
        return c.info;
    case CellStatus::Error:
        return c.error;
    case CellStatus::Interrupted:
        return c.busy;
    case CellStatus::Idle:
    case CellStatus::Done:
        break;
    }
    return QApplication::palette().color(QPalette::WindowText);
}

void CellWidget::syncToCell()
{
    if (!m_syncing && m_cell)
        m_cell->setSource(m_editor->toPlainText());
}

void CellWidget::syncFromCell()
{
    if (!m_cell || m_editor->toPlainText() == m_cell->source())
        return;
    m_syncing = true;
    m_editor->setPlainText(m_cell->source());
    m_syncing = false;
    if (isRendered())
        renderedView()->document()->setMarkdown(m_cell->source());
}

RichTextView* CellWidget::renderedView()
{
    // Made the first time the cell shows rendered markdown: a code cell never needs it, and a
    // view per cell was a fifth of a cell's cost when a big notebook opens.
    if (m_rendered == nullptr) {
        m_rendered = new RichTextView;
        m_sourceLayout->addWidget(m_rendered);
        m_rendered->viewport()->installEventFilter(this);
        m_rendered->setCursor(Qt::IBeamCursor);
        m_rendered->hide();
    }
    return m_rendered;
}

void CellWidget::setCodeLanguage(const QString& language)
{
    m_codeLanguage = language;
    updateType();
}

void CellWidget::updateType()
{
    if (!m_cell)
        return;
    switch (m_cell->type()) {
    case CellType::Code:
        m_editor->setLanguage(m_codeLanguage);
        break;
    case CellType::Markdown:
        m_editor->setLanguage(QStringLiteral("markdown"));
        break;
    case CellType::Raw:
        m_editor->setLanguage({});
        break;
    }
    updateStatus();
}

bool CellWidget::isRendered() const
{
    return m_cell && m_cell->type() == CellType::Markdown && m_cell->status() == CellStatus::Done;
}

QString CellWidget::promptText() const
{
    return m_prompt->text();
}

QString CellWidget::statusText() const
{
    return m_status->text();
}

void CellWidget::updateStatus()
{
    if (!m_cell)
        return;
    const bool code = m_cell->type() == CellType::Code;
    const CellStatus status = m_cell->status();
    QString prompt;
    if (code) {
        if (status == CellStatus::Queued || status == CellStatus::Running)
            prompt = QStringLiteral("In [*]:");
        else if (m_cell->executionCount())
            prompt = QStringLiteral("In [%1]:").arg(*m_cell->executionCount());
        else
            prompt = QStringLiteral("In [ ]:");
    }
    m_prompt->setText(prompt);
    static const QHash<CellStatus, QString> texts = {
        {CellStatus::Queued, QStringLiteral("queued")},
        {CellStatus::Running, QStringLiteral("running…")},
        {CellStatus::Error, QStringLiteral("error")},
        {CellStatus::Interrupted, QStringLiteral("interrupted")},
    };
    m_status->setText(code ? texts.value(status) : QString());
    setPaletteColour(m_status, QPalette::WindowText, statusColour());
    const bool rendered = isRendered();
    if (rendered)
        renderedView()->document()->setMarkdown(m_cell->source());
    if (m_rendered != nullptr)
        m_rendered->setVisible(rendered);
    m_editor->setVisible(!rendered);
}

void CellWidget::setSelected(bool selected, bool editing)
{
    m_selected = selected;
    m_editing = selected && editing;
    applyColours();
}

void CellWidget::startEditing()
{
    if (m_cell && isRendered())
        m_cell->setStatus(CellStatus::Idle); // back to its source
    m_editor->setFocus(Qt::OtherFocusReason);
}

void CellWidget::mousePressEvent(QMouseEvent* event)
{
    emit clicked(this);
    QWidget::mousePressEvent(event);
}

bool CellWidget::eventFilter(QObject* watched, QEvent* event)
{
    if (m_rendered != nullptr && watched == m_rendered->viewport()) {
        if (event->type() == QEvent::MouseButtonDblClick) {
            emit editRequested(this);
            return true;
        }
        if (event->type() == QEvent::MouseButtonPress)
            emit clicked(this);
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace lizard::ui::notebook
