#include "ui/progressstrip.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>

namespace lizard::ui {

ProgressStrip::ProgressStrip(QWidget* parent)
    : QFrame(parent), m_label(new QLabel(this)), m_bar(new QProgressBar(this)),
      m_cancel(new QPushButton(this))
{
    setObjectName(QStringLiteral("progressStrip"));
    setStyleSheet(QStringLiteral(
        "#progressStrip { background: #e8f1fb; border: 1px solid #a9c6e8; border-radius: 4px; }"
        "QLabel { color: #17365d; }"));
    m_bar->setRange(0, 0); // busy: a stage gives no fraction of its own
    m_bar->setTextVisible(false);
    m_bar->setMaximumWidth(180);
    m_bar->setMaximumHeight(12);
    m_cancel->setText(QStringLiteral("Cancel"));
    m_cancel->setObjectName(QStringLiteral("progressCancel"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 4, 6, 4);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_bar);
    layout->addWidget(m_cancel);
    connect(m_cancel, &QPushButton::clicked, this, &ProgressStrip::cancelRequested);
}

void ProgressStrip::setStage(int step, int steps, const QString& text)
{
    setLabel(
        QStringLiteral("<b>%1</b> (step %2 of %3)").arg(text.toHtmlEscaped()).arg(step).arg(steps));
}

void ProgressStrip::setCancelling(const QString& text)
{
    setLabel(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()));
    m_cancel->setEnabled(false);
}

void ProgressStrip::setNote(const QString& note)
{
    QString current = m_label->text();
    if (!m_note.isEmpty())
        current.chop(m_note.size());
    m_note = QStringLiteral(" · ") + note.toHtmlEscaped();
    m_label->setText(current + m_note);
}

void ProgressStrip::setLabel(const QString& html)
{
    m_label->setText(html + m_note);
}

QString ProgressStrip::text() const
{
    return m_label->text();
}

} // namespace lizard::ui
