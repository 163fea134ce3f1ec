#include "ui/documentpage.h"

#include <QHideEvent>
#include <QShowEvent>

namespace lizard::ui {

DocumentPage::~DocumentPage() = default;

void DocumentPage::showEvent(QShowEvent* event)
{
    setUpdatesEnabled(true);
    QWidget::showEvent(event);
}

void DocumentPage::hideEvent(QHideEvent* event)
{
    // A hidden page's updates stay off until it shows again. Switching tabs turns the updates of
    // the tabs' whole stack off and on again (QStackedLayout does, around the change), which
    // walks every widget of every open page unless it stops at one marked as off by itself: with
    // ten notebooks open, that walk was most of a switch.
    if (!event->spontaneous())
        setUpdatesEnabled(false);
    QWidget::hideEvent(event);
}

} // namespace lizard::ui
