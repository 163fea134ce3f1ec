#pragma once
// One cell of the notebook view: a selection bar, the "In [n]:" prompt with the cell's status,
// the source editor (or, for a markdown cell that has been run, its rendering) and the outputs.

#include "notebook/cell.h"
#include "ui/notebook/celleditor.h"

#include <QPointer>
#include <QWidget>

class QLabel;
class QVBoxLayout;

namespace lizard::ui::notebook {

class OutputArea;
class RichTextView;

class CellWidget : public QWidget
{
    Q_OBJECT
public:
    CellWidget(lizard::notebook::Cell* cell, const QString& codeLanguage,
               QWidget* parent = nullptr);

    lizard::notebook::Cell* cell() const { return m_cell; }
    CellEditor* editor() const { return m_editor; }
    OutputArea* outputs() const { return m_outputs; }
    // The rendered markdown's view: null until the cell first shows rendered markdown.
    RichTextView* rendered() const { return m_rendered; }
    QString promptText() const;
    QString statusText() const;
    bool isRendered() const; // a markdown cell showing its rendering

    void setCodeLanguage(const QString& language);
    // selected: the notebook's current cell; editing: in edit mode (the editor has focus).
    void setSelected(bool selected, bool editing);
    void startEditing(); // shows the editor (un-renders markdown) and focuses it

signals:
    void clicked(lizard::ui::notebook::CellWidget* cell);       // on the prompt or margin
    void editRequested(lizard::ui::notebook::CellWidget* cell); // double-click on rendered markdown
    void editorFocused(lizard::ui::notebook::CellWidget* cell);

protected:
    void mousePressEvent(QMouseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void syncFromCell();
    void syncToCell();
    void updateType();
    void updateStatus();
    RichTextView* renderedView(); // m_rendered, made when first needed
    void applyColours();          // the scheme's colours for the cell's state
    QColor statusColour() const;

    QPointer<lizard::notebook::Cell> m_cell;
    QString m_codeLanguage;
    QWidget* m_bar;
    QLabel* m_prompt;
    QLabel* m_status;
    CellEditor* m_editor;
    QVBoxLayout* m_sourceLayout = nullptr;
    RichTextView* m_rendered = nullptr;
    OutputArea* m_outputs;
    bool m_syncing = false;
    bool m_selected = false;
    bool m_editing = false;
};

} // namespace lizard::ui::notebook
