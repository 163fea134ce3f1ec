#include "ui/errorlabel.h"

namespace lizard::ui {

ErrorLabel::ErrorLabel(QWidget* parent) : QLabel(parent)
{
    setWordWrap(true);
    setStyleSheet(QStringLiteral("QLabel { color: #b02020; }"));
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    hide();
}

void ErrorLabel::showError(const QString& text)
{
    setText(text);
    show();
}

QString ErrorLabel::errorText() const
{
    return isVisible() ? text() : QString();
}

} // namespace lizard::ui
