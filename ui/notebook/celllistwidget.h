#pragma once
// The cells of a notebook as a scrolling column, with JupyterLab's two modes. In edit mode the
// current cell's editor has the keyboard; in command mode this widget does:
//   Enter edit · A/B insert above/below · D D delete · Z undo delete · M/Y markdown/code ·
//   Up/Down (K/J) move · Shift+Enter run and advance · Ctrl+Enter run · Alt+Enter run, insert.
// Esc in the editor returns to command mode.

#include "notebook/notebookdocument.h"
#include "notebook/runqueue.h"
#include "ui/notebook/celleditor.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QScrollArea>

class QVBoxLayout;

namespace lizard::ui::notebook {

class CellWidget;

class CellListWidget : public QScrollArea
{
    Q_OBJECT
public:
    enum class Mode { Command, Edit };

    explicit CellListWidget(lizard::notebook::NotebookDocument* document, QWidget* parent = nullptr);

    void setRunQueue(lizard::notebook::RunQueue* queue) { m_queue = queue; }
    void setCodeLanguage(const QString& language);

    int count() const { return int(m_widgets.size()); }
    CellWidget* cellWidget(int index) const;
    int currentIndex() const { return m_current; }
    CellWidget* currentWidget() const { return cellWidget(m_current); }
    Mode mode() const { return m_mode; }

    void setCurrentIndex(int index); // keeps the mode (edit mode moves the keyboard along)
    void enterEditMode();
    void enterCommandMode();

    // The commands behind the keys (and the toolbar).
    void runCurrent(CellEditor::RunMode mode);
    void runAll();
    void insertCell(bool below);
    void deleteCurrent();
    void undoDelete();
    void setCurrentType(lizard::notebook::CellType type);

signals:
    void currentChanged(int index);
    void modeChanged(lizard::ui::notebook::CellListWidget::Mode mode);

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;

private:
    void rebuild();
    void insertWidget(int index);
    void removeWidget(int index);
    void moveWidget(int from, int to);
    void connectWidget(CellWidget* widget);
    void updateSelection();
    void runCell(int index);

    QPointer<lizard::notebook::NotebookDocument> m_document;
    QPointer<lizard::notebook::RunQueue> m_queue;
    QString m_language = QStringLiteral("python");
    QWidget* m_container;
    QVBoxLayout* m_layout;
    QList<CellWidget*> m_widgets;
    int m_current = -1;
    Mode m_mode = Mode::Command;
    QElapsedTimer m_lastD; // D D within a short time deletes
};

} // namespace lizard::ui::notebook
