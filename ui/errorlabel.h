#pragma once
// The red, selectable line a dialog shows a failure in, hidden until there is one: the create,
// fork and new-volume dialogs keep their input and say here why the server refused it.

#include <QLabel>

namespace lizard::ui {

class ErrorLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ErrorLabel(QWidget* parent = nullptr);

    void showError(const QString& text);
    QString errorText() const; // "" while hidden
};

} // namespace lizard::ui
