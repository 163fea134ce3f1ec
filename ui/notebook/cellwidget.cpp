#include "ui/notebook/cellwidget.h"

#include "ui/notebook/outputarea.h"
#include "ui/notebook/richtextview.h"

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
      m_outputs(new OutputArea(cell))
{
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 2, 6, 2);
    grid->setHorizontalSpacing(4);
    grid->setVerticalSpacing(2);
    m_bar->setFixedWidth(4);
    m_bar->setAutoFillBackground(true);
    m_prompt->setFixedWidth(OutputArea::promptWidth(fontMetrics()));
    m_prompt->setAlignment(Qt::AlignRight | Qt::AlignTop);
    m_prompt->setStyleSheet(QStringLiteral("color:#303f9f;font-family:monospace;"));
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
    setSelected(false, false);
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
    static const QHash<CellStatus, QPair<QString, QString>> texts = {
        {CellStatus::Idle, {QString(), QString()}},
        {CellStatus::Queued, {QStringLiteral("queued"), QStringLiteral("#777")}},
        {CellStatus::Running, {QStringLiteral("running…"), QStringLiteral("#1565c0")}},
        {CellStatus::Done, {QString(), QString()}},
        {CellStatus::Error, {QStringLiteral("error"), QStringLiteral("#c62828")}},
        {CellStatus::Interrupted, {QStringLiteral("interrupted"), QStringLiteral("#ef6c00")}},
    };
    const auto text = texts.value(status);
    m_status->setText(code ? text.first : QString());
    m_status->setStyleSheet(text.second.isEmpty() ? QString() : "color:" + text.second);
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
    const QColor colour = !selected
                              ? Qt::transparent
                              : (m_editing ? QColor(0x66, 0xbb, 0x6a) : QColor(0x19, 0x76, 0xd2));
    // Every cell hears every selection change: only a changed colour is set (a palette change
    // reaches every child and posts events to each; over 2,000 cells that took seconds).
    if (m_bar->palette().color(QPalette::Window) != colour) {
        QPalette p = m_bar->palette();
        p.setColor(QPalette::Window, colour);
        m_bar->setPalette(p);
    }
    const QString sheet =
        m_editing ? QStringLiteral("QPlainTextEdit{border:1px solid #66bb6a;background:#fff;}")
                  : QStringLiteral("QPlainTextEdit{border:1px solid #ddd;background:#f7f7f7;}");
    // Likewise an unchanged style sheet is not set again (setting one re-polishes the editor).
    if (m_editor->styleSheet() != sheet)
        m_editor->setStyleSheet(sheet);
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
