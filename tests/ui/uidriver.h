#pragma once
// What a user does with the mouse and keyboard, for UI suites that walk through a task: click
// a toolbar button or a menu entry, wait for a window to show up, answer a modal box, type
// into a notebook cell. Each helper fails (returns false or null) instead of hanging.

#include "support/wait.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTest>
#include <QTimer>
#include <QToolBar>
#include <functional>

namespace lizard::test {

// Clicks the toolbar button of `action` inside `root`, as a user would; false when the action
// is on no toolbar there or is disabled.
inline bool clickToolButton(QWidget* root, QAction* action)
{
    if (action == nullptr || !action->isEnabled())
        return false;
    for (QToolBar* bar : root->findChildren<QToolBar*>()) {
        if (QWidget* button =
                bar->actions().contains(action) ? bar->widgetForAction(action) : nullptr;
            button != nullptr && button->isVisible()) {
            QTest::mouseClick(button, Qt::LeftButton);
            return true;
        }
    }
    return false;
}

// The menu bar entry "Menu ▸ Entry" (texts without the & and the …), or null.
inline QAction* menuAction(QMainWindow* window, const QString& menu, const QString& entry)
{
    const auto plain = [](QString text) {
        return text.remove(QLatin1Char('&')).remove(QChar(0x2026)).trimmed();
    };
    for (QAction* top : window->menuBar()->actions()) {
        if (top->menu() == nullptr || plain(top->text()) != menu)
            continue;
        for (QAction* a : top->menu()->actions())
            if (plain(a->text()) == entry)
                return a;
    }
    return nullptr;
}

// The first visible top-level widget or child of `T` (with that object name if given).
template <class T> T* waitForVisible(const QString& objectName = {}, int timeoutMs = 5000)
{
    T* found = nullptr;
    const auto find = [&] {
        for (QWidget* top : QApplication::topLevelWidgets()) {
            QList<T*> candidates = top->findChildren<T*>();
            if (auto* self = qobject_cast<T*>(top))
                candidates.prepend(self);
            for (T* c : candidates)
                if (c->isVisible() && (objectName.isEmpty() || c->objectName() == objectName))
                    found = c;
        }
        return found != nullptr;
    };
    (void)lizard::test::waitUntil(find, timeoutMs);
    return found;
}

// Runs `act` on the next modal widget of type T that shows up (inside an exec() as well),
// once; the timer stops after `timeoutMs` so a missing box cannot leave it behind.
template <class T>
void whenModal(QObject* owner, std::function<void(T*)> act, int timeoutMs = 30000)
{
    auto* timer = new QTimer(owner);
    timer->setInterval(20);
    const qint64 deadline = QDateTime::currentMSecsSinceEpoch() + timeoutMs;
    QObject::connect(timer, &QTimer::timeout, owner, [timer, act, deadline] {
        if (auto* w = qobject_cast<T*>(QApplication::activeModalWidget());
            w != nullptr && w->isVisible()) {
            timer->stop();
            timer->deleteLater();
            act(w);
        } else if (QDateTime::currentMSecsSinceEpoch() > deadline) {
            timer->stop();
            timer->deleteLater();
        }
    });
    timer->start();
}

// Clicks the button whose text (without &) is `text` among `root`'s buttons; false if none.
inline bool clickButton(QWidget* root, const QString& text)
{
    for (QAbstractButton* b : root->findChildren<QAbstractButton*>()) {
        if (b->isVisible() && b->text().remove(QLatin1Char('&')) == text) {
            QTest::mouseClick(b, Qt::LeftButton);
            return true;
        }
    }
    return false;
}

} // namespace lizard::test
