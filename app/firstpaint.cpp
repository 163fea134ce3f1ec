#include "app/firstpaint.h"

#include <QEvent>
#include <QPointer>
#include <QWidget>
#include <cstdio>

namespace lizard::app {

namespace {

class FirstPaintFilter : public QObject
{
public:
    using QObject::QObject;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Paint && !m_seen) {
            m_seen = true;
            // Queued: it runs once this paint and the flush of the window's backing store that
            // follows it in the same update are done.
            QMetaObject::invokeMethod(
                this,
                [this] {
                    std::printf("lizard-desktop: painted\n");
                    std::fflush(stdout);
                    deleteLater();
                },
                Qt::QueuedConnection);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    bool m_seen = false;
};

} // namespace

void reportFirstPaint(QWidget* window)
{
    if (qEnvironmentVariableIntValue("LIZARD_DESKTOP_REPORT_PAINT") != 1)
        return;
    window->installEventFilter(new FirstPaintFilter(window));
}

} // namespace lizard::app
