#include "ui/notebook/outputarea.h"

#include "ui/notebook/cellpalette.h"
#include "ui/notebook/outputview.h"
#include "ui/notebook/outputviewfactory.h"
#include "ui/notebook/streamoutputview.h"
#include "ui/theme/themecolors.h"

#include <QHBoxLayout>
#include <QLabel>

namespace lizard::ui::notebook {

using namespace lizard::notebook;

int OutputArea::promptWidth(const QFontMetrics& metrics)
{
    return metrics.horizontalAdvance(QStringLiteral("Out [999]:")) + 8;
}

OutputArea::OutputArea(Cell* cell, QWidget* parent)
    : QWidget(parent), m_cell(cell), m_layout(new QVBoxLayout(this))
{
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_layout->setSpacing(2);
    for (int i = 0; i < int(cell->outputs().size()); ++i)
        insertRow(i);
    connect(cell, &Cell::outputAdded, this, &OutputArea::insertRow);
    connect(cell, &Cell::outputChanged, this, &OutputArea::updateRow);
    connect(cell, &Cell::outputsCleared, this, &OutputArea::clearRows);
    connect(cell, &Cell::executionCountChanged, this, [this] {
        for (int i = 0; i < m_rows.size(); ++i)
            m_rows[i].prompt->setText(promptFor(m_cell->outputs().at(size_t(i))));
    });
    setVisible(!m_rows.isEmpty());
}

void OutputArea::applyColours()
{
    for (const Row& row : std::as_const(m_rows))
        setPaletteColour(row.prompt, QPalette::WindowText, ThemeColors::current().promptOut);
}

OutputView* OutputArea::view(int index) const
{
    return index >= 0 && index < m_rows.size() ? m_rows[index].view : nullptr;
}

void OutputArea::flush()
{
    for (const Row& row : m_rows)
        row.view->flush();
}

QString OutputArea::promptText(int index) const
{
    return index >= 0 && index < m_rows.size() ? m_rows[index].prompt->text() : QString();
}

QString OutputArea::promptFor(const Output& output) const
{
    const auto* rich = std::get_if<RichOutput>(&output);
    if (!rich || rich->kind != RichOutput::Kind::ExecuteResult)
        return {};
    const std::optional<int> count =
        rich->executionCount ? rich->executionCount : m_cell->executionCount();
    return count ? QStringLiteral("Out [%1]:").arg(*count) : QStringLiteral("Out [ ]:");
}

void OutputArea::insertRow(int index)
{
    if (!m_cell || index < 0 || index >= int(m_cell->outputs().size()))
        return;
    const Output& output = m_cell->outputs().at(size_t(index));
    Row row;
    row.row = new QWidget;
    auto* layout = new QHBoxLayout(row.row);
    layout->setContentsMargins(0, 0, 0, 0);
    row.prompt = new QLabel(promptFor(output));
    row.prompt->setFixedWidth(promptWidth(fontMetrics()));
    row.prompt->setAlignment(Qt::AlignRight | Qt::AlignTop);
    row.prompt->setFont(monospaced(row.prompt->font()));
    setPaletteColour(row.prompt, QPalette::WindowText, ThemeColors::current().promptOut);
    row.view = createOutputView(output);
    connectSource(row.view, index);
    layout->addWidget(row.prompt);
    layout->addWidget(row.view, 1);
    m_layout->insertWidget(index, row.row);
    m_rows.insert(index, row);
    show();
}

void OutputArea::updateRow(int index)
{
    if (!m_cell || index < 0 || index >= m_rows.size() || index >= int(m_cell->outputs().size()))
        return;
    const Output& output = m_cell->outputs().at(size_t(index));
    Row& row = m_rows[index];
    row.prompt->setText(promptFor(output));
    if (row.view->setOutput(output))
        return;
    OutputView* fresh = createOutputView(output);
    connectSource(fresh, index);
    row.row->layout()->replaceWidget(row.view, fresh);
    delete row.view;
    row.view = fresh;
}

void OutputArea::connectSource(OutputView* view, int index)
{
    // Rows only grow at the end or are cleared together, so a row's index stays its output's.
    if (auto* stream = qobject_cast<StreamOutputView*>(view)) {
        stream->setSource([cell = m_cell, index]() -> const StreamOutput* {
            if (!cell || index >= int(cell->outputs().size()))
                return nullptr;
            return std::get_if<StreamOutput>(&cell->outputs().at(size_t(index)));
        });
    }
}

void OutputArea::clearRows()
{
    for (const Row& row : m_rows)
        delete row.row;
    m_rows.clear();
    hide();
}

} // namespace lizard::ui::notebook
