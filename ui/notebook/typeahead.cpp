#include "ui/notebook/typeahead.h"

#include <QApplication>
#include <QKeyEvent>
#include <QWidget>
#include <utility>

namespace lizard::ui::notebook {

namespace {
constexpr Qt::KeyboardModifiers kCommandModifiers =
    Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier;
}

TypeAhead::TypeAhead(QWidget* window, QObject* parent) : QObject(parent), m_window(window)
{
    qApp->installEventFilter(this);
}

TypeAhead::~TypeAhead()
{
    qApp->removeEventFilter(this);
}

void TypeAhead::replayInto(QWidget* target)
{
    m_keeping = false;
    const QList<Key> keys = std::exchange(m_keys, {});
    QPointer<QWidget> first(target);
    for (const Key& k : keys) {
        if (!first)
            return;
        // Where the keyboard is now: a kept Shift+Enter ran the cell and moved to the next.
        QWidget* to = first->window()->focusWidget();
        if (!to)
            to = first;
        const auto modifiers = Qt::KeyboardModifiers(k.modifiers);
        QKeyEvent press(QEvent::KeyPress, k.key, modifiers, k.text);
        QApplication::sendEvent(to, &press);
        QKeyEvent release(QEvent::KeyRelease, k.key, modifiers, k.text);
        QApplication::sendEvent(to, &release);
    }
}

bool TypeAhead::forWindow(QObject* watched) const
{
    auto* widget = qobject_cast<QWidget*>(watched);
    return widget && m_window && widget->window() == m_window &&
           QApplication::activeModalWidget() == nullptr;
}

bool TypeAhead::isTyping(const QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
    case Qt::Key_Tab:
    case Qt::Key_Backtab:
    case Qt::Key_Backspace:
    case Qt::Key_Delete:
    case Qt::Key_Left:
    case Qt::Key_Right:
    case Qt::Key_Up:
    case Qt::Key_Down:
    case Qt::Key_Home:
    case Qt::Key_End:
        return true;
    default:
        // Printable text; not a lone Shift or a dead key, which bring none.
        return !event->text().isEmpty() && event->text().at(0).isPrint();
    }
}

bool TypeAhead::eventFilter(QObject* watched, QEvent* event)
{
    if (!m_keeping)
        return false;
    switch (event->type()) {
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonDblClick:
        m_keeping = false; // the user has gone elsewhere: from here on, keys go where they point
        return false;
    case QEvent::ShortcutOverride:
    case QEvent::KeyPress:
    case QEvent::KeyRelease: {
        auto* key = static_cast<QKeyEvent*>(event);
        if (!forWindow(watched))
            return false;
        if ((key->modifiers() & kCommandModifiers) || key->key() == Qt::Key_Escape) {
            if (event->type() != QEvent::KeyRelease)
                m_keeping = false; // a shortcut or Escape: meant for the app as it is now
            return false;
        }
        if (!isTyping(key))
            return false;
        if (event->type() == QEvent::ShortcutOverride) {
            event->accept(); // a key the notebook will type, not one for a shortcut (Delete)
            return true;
        }
        if (event->type() == QEvent::KeyPress)
            m_keys.append({key->key(), int(key->modifiers()), key->text()});
        return true;
    }
    default:
        return false;
    }
}

} // namespace lizard::ui::notebook
