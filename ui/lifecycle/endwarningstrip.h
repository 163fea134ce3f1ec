#pragma once
// The in-window warning that a sandbox of an open notebook or console ends soon: what ends
// and when (counting down), with Extend and Dismiss. Shown under the banner until deleted.

#include "client/types.h"

#include <QFrame>
#include <QTimer>

class QLabel;
class QPushButton;

namespace lizard::ui::lifecycle {

class EndWarningStrip : public QFrame
{
    Q_OBJECT
public:
    static constexpr int kExtendMinutes = 30;

    // `where`: what the user has open on it ("notebook analysis.ipynb", "console").
    EndWarningStrip(const client::SandboxInfo& info, QString where, QWidget* parent = nullptr);

    QString sandboxId() const { return m_info.sandboxId; }
    QString text() const;
    QPushButton* extendButton() const { return m_extend; }
    // A new deadline within the warning time (a second warning for the same sandbox).
    void setInfo(const client::SandboxInfo& info);
    // The extend failed: the strip stays, with why.
    void showFailure(const QString& text);

signals:
    void extendRequested(const QString& sandboxId, int minutes);

private:
    void tick();

    client::SandboxInfo m_info;
    QString m_where;
    QLabel* m_label;
    QPushButton* m_extend;
    QTimer m_tick;
};

// The text of the warning (the tray's message and the strip's): "Sandbox sb_x (notebook
// a.ipynb) ends in 4:59: it is killed then, with its files."
QString endWarningText(const client::SandboxInfo& info, const QString& where);

} // namespace lizard::ui::lifecycle
