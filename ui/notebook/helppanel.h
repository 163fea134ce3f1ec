#pragma once
// JupyterLab's contextual help beside the cells: the kernel's signature and docstring for the
// name under the cursor of the current Python cell, asked 300 ms after the cursor stops (so
// typing and arrowing do not flood the kernel) and only while the panel is shown. The runner
// queues inspect requests behind a running cell, so none is sent while the notebook runs: the
// panel says it waits and asks once the run ends. Shift+Tab's help (CellCompleter) shows here
// too. A name the kernel does not know leaves the last help in place, as in JupyterLab.

#include "notebook/coderunner.h"
#include "notebook/runqueue.h"

#include <QMetaObject>
#include <QPointer>
#include <QWidget>

class QLabel;
class QTextBrowser;
class QTimer;

namespace lizard::ui::notebook {

class CellListWidget;

class HelpPanel : public QWidget
{
    Q_OBJECT
public:
    HelpPanel(CellListWidget* cells, lizard::notebook::CodeRunner* runner,
              lizard::notebook::RunQueue* queue, QWidget* parent = nullptr);

    void setDebounce(int ms);   // how long the cursor must rest before the kernel is asked
    QString helpText() const;   // what the panel shows, as plain text
    QString statusText() const; // the line above the help (what the panel waits for)
    int requestCount() const { return m_requests; }

    // Shows kernel help (with ANSI colours) for `name`, e.g. from Shift+Tab.
    void showHelp(const QString& ansiText);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void followCurrentCell();
    void schedule();
    void ask();
    void setStatus(const QString& text);

    QPointer<CellListWidget> m_cells;
    QPointer<lizard::notebook::CodeRunner> m_runner;
    QPointer<lizard::notebook::RunQueue> m_queue;
    QLabel* m_status;
    QTextBrowser* m_view;
    QTimer* m_debounce;
    QString m_plain;
    QList<QMetaObject::Connection> m_cellConnections;
    quint64 m_generation = 0; // only the latest request's answer counts
    bool m_waitingForRun = false;
    int m_requests = 0;
};

} // namespace lizard::ui::notebook
