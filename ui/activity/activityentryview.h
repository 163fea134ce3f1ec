#pragma once
// One activity entry, shown in full: a runCode as a notebook cell (its code highlighted, then
// its outputs in the notebook's own output views, charts included), an exec as a console
// entry (command, output head and tail, exit code), a file change with a link to the Files
// tab, a lifecycle event as one line.

#include "client/activitypage.h"

#include <QDateTime>
#include <QWidget>

class QVBoxLayout;

namespace lizard::ui::notebook {
class OutputView;
}

namespace lizard::ui::activity {

class ActivityEntryView : public QWidget
{
    Q_OBJECT
public:
    explicit ActivityEntryView(QWidget* parent = nullptr);

    void showEntry(const client::ActivityEntry& entry);
    void clear();
    // The output views of the shown runCode entry (tests read what they show).
    QList<notebook::OutputView*> outputViews() const { return m_outputs; }

signals:
    void showFileRequested(const QString& path);
    // "Files it changed" of an exec or a code run: its time span, and how to name it.
    void showChangesRequested(const QDateTime& from, const QDateTime& to, const QString& what);

private:
    void addHeader(const client::ActivityEntry& entry);
    void showRunCode(const client::ActivityEntry& entry);
    void showExec(const client::ActivityEntry& entry);
    void showFile(const client::ActivityEntry& entry);
    void addChangesLink(const client::ActivityEntry& entry);

    QVBoxLayout* m_layout;
    QList<notebook::OutputView*> m_outputs;
};

} // namespace lizard::ui::activity
