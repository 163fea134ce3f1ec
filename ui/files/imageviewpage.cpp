#include "ui/files/imageviewpage.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPixmap>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace lizard::ui::files {

ImageViewPage::ImageViewPage(const QString& sandboxId, const QString& path, const QImage& image,
                             QWidget* parent)
    : DocumentPage(parent), m_sandboxId(sandboxId), m_path(path), m_image(image),
      m_scroll(new QScrollArea), m_label(new QLabel), m_fit(new QToolButton)
{
    setObjectName(QStringLiteral("imageViewPage"));
    m_label->setAlignment(Qt::AlignCenter);
    m_scroll->setWidget(m_label);
    m_scroll->setWidgetResizable(true);
    m_scroll->setAlignment(Qt::AlignCenter);
    m_fit->setText(tr("Fit to window"));
    m_fit->setCheckable(true);
    m_fit->setChecked(true);
    connect(m_fit, &QToolButton::toggled, this, &ImageViewPage::updatePixmap);
    auto* info =
        new QLabel(tr("%1 · %2 × %3 pixels").arg(path).arg(image.width()).arg(image.height()));
    auto* bar = new QHBoxLayout;
    bar->addWidget(info, 1);
    bar->addWidget(m_fit);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_scroll, 1);
    layout->addLayout(bar);
    updatePixmap();
}

QString ImageViewPage::title() const
{
    return m_path.section(QLatin1Char('/'), -1);
}

QString ImageViewPage::toolTip() const
{
    return QStringLiteral("%1: %2").arg(m_sandboxId, m_path);
}

void ImageViewPage::resizeEvent(QResizeEvent* event)
{
    DocumentPage::resizeEvent(event);
    if (m_fit->isChecked())
        updatePixmap();
}

void ImageViewPage::updatePixmap()
{
    QPixmap pixmap = QPixmap::fromImage(m_image);
    const QSize room = m_scroll->viewport()->size() - QSize(4, 4);
    // Fitting only shrinks: a small icon stays crisp at its own size.
    if (m_fit->isChecked() && (pixmap.width() > room.width() || pixmap.height() > room.height()) &&
        room.isValid() && !room.isEmpty())
        pixmap = pixmap.scaled(room, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    m_label->setPixmap(pixmap);
}

} // namespace lizard::ui::files
