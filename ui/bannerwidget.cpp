#include "ui/bannerwidget.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

namespace lizard::ui {

BannerWidget::BannerWidget(QWidget* parent) : QFrame(parent), m_label(new QLabel(this))
{
    setObjectName(QStringLiteral("banner"));
    m_label->setWordWrap(true);
    m_label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    close->setToolTip(QStringLiteral("Dismiss"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(m_label, 1);
    layout->addWidget(close, 0, Qt::AlignTop);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void BannerWidget::showMessage(Kind kind, const QString& text)
{
    m_kind = kind;
    m_label->setText(text);
    if (kind == Kind::Error)
        setStyleSheet(QStringLiteral(
            "#banner { background: #fdecea; border: 1px solid #e0a39c; border-radius: 4px; }"
            "QLabel { color: #7a1c12; }"));
    else
        setStyleSheet(QStringLiteral(
            "#banner { background: #fff6dc; border: 1px solid #e6cf8b; border-radius: 4px; }"
            "QLabel { color: #5c4600; }"));
    show();
}

QString BannerWidget::text() const
{
    return m_label->text();
}

} // namespace lizard::ui
