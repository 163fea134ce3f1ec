#pragma once
// The list of completions under the cursor: a frameless window that never takes the keyboard
// (the editor keeps typing; CellCompleter forwards Up/Down/Enter/Tab/Esc). Each row shows the
// match and, when the kernel said, its kind (function, module, class, ...). Rows are filtered
// by the prefix typed since the request.

#include "notebook/coderunner.h"

#include <QListWidget>

namespace lizard::ui::notebook {

class CompletionPopup : public QListWidget
{
    Q_OBJECT
public:
    explicit CompletionPopup(QWidget* parent = nullptr);

    void setMatches(const QList<lizard::notebook::Completion>& matches);
    // Shows only the matches starting with prefix (case-insensitive); false when none does.
    bool filter(const QString& prefix);
    QStringList visibleMatches() const;
    QString currentMatch() const;
    QString kindOf(const QString& match) const;
    void moveSelection(int rows);
    void showAt(const QPoint& globalPos);
};

} // namespace lizard::ui::notebook
