#include "app/firstpaint.h"

#include <QEvent>
#include <QWidget>
#include <cstdio>

namespace lizard::app {

namespace {

class FirstPaintFilter : public QObject
{
public:
    FirstPaintFilter(QObject* parent, const char* line) : QObject(parent), m_line(line) {}

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
                    std::printf("%s\n", m_line);
                    std::fflush(stdout);
                    deleteLater();
                },
                Qt::QueuedConnection);
        }
        return QObject::eventFilter(watched, event);
    }

private:
    const char* m_line;
    bool m_seen = false;
};

} // namespace

void reportFirstPaint(QWidget* window, const char* line)
{
    if (qEnvironmentVariableIntValue("LIZARD_DESKTOP_REPORT_PAINT") != 1)
        return;
    window->installEventFilter(new FirstPaintFilter(window, line));
}

} // namespace lizard::app
