#pragma once
// A non-modal message strip above the content: errors (red) and notes (amber), with a
// close button. A new message replaces the old one.

#include <QFrame>

class QLabel;

namespace lizard::ui {

class BannerWidget : public QFrame
{
    Q_OBJECT
public:
    enum class Kind { Error, Note };
    explicit BannerWidget(QWidget* parent = nullptr);

    void showMessage(Kind kind, const QString& text);
    QString text() const;
    Kind kind() const { return m_kind; }

private:
    QLabel* m_label;
    Kind m_kind = Kind::Note;
};

} // namespace lizard::ui
