#pragma once
// Keys typed while a notebook is on its way (New notebook creates a sandbox and starts Python
// before the page exists): kept instead of reaching whatever has the focus meanwhile (the
// sandbox table would jump between rows, Delete would run its Kill), then typed into the new
// notebook's first cell once it opens, in order. Only keys for the main window are kept, and
// only what types text or moves in it (no Ctrl, Alt or Meta); a click, a key with those
// modifiers, Escape or a dialog ends the keeping and the events go on as usual.

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

class QKeyEvent;
class QWidget;

namespace lizard::ui::notebook {

class TypeAhead : public QObject
{
    Q_OBJECT
public:
    // Starts keeping the keys meant for `window` (watches the whole application).
    explicit TypeAhead(QWidget* window, QObject* parent = nullptr);
    ~TypeAhead() override;

    bool isKeeping() const { return m_keeping; }
    int keptCount() const { return int(m_keys.size()); }
    // Stops keeping and types what was kept into `target` (a cell's editor) or, once a key moved
    // the keyboard on (Shift+Enter), into the widget of its window that has it now.
    void replayInto(QWidget* target);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    struct Key
    {
        int key;
        int modifiers;
        QString text;
    };
    bool forWindow(QObject* watched) const;
    static bool isTyping(const QKeyEvent* event);

    QPointer<QWidget> m_window;
    QList<Key> m_keys;
    bool m_keeping = true;
};

} // namespace lizard::ui::notebook
