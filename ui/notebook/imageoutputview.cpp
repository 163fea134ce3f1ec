#include "ui/notebook/imageoutputview.h"

#include <QMouseEvent>
#include <QPixmap>
#include <cmath>

namespace lizard::ui::notebook {

ImageOutputView::ImageOutputView(QImage image, QWidget* parent)
    : QLabel(parent), m_image(std::move(image))
{
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setCursor(Qt::PointingHandCursor);
    setToolTip(QStringLiteral("%1 × %2 — click to open full size")
                   .arg(m_image.width())
                   .arg(m_image.height()));
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    rescale();
}

QSize ImageOutputView::fitted(int width) const
{
    if (m_image.isNull() || width <= 0)
        return {};
    if (m_image.width() <= width)
        return m_image.size();
    return {width,
            std::max(1, int(std::lround(double(m_image.height()) * width / m_image.width())))};
}

int ImageOutputView::heightForWidth(int width) const
{
    return fitted(width).height();
}

QSize ImageOutputView::sizeHint() const
{
    return m_image.size();
}

void ImageOutputView::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    rescale();
}

void ImageOutputView::showEvent(QShowEvent* event)
{
    QLabel::showEvent(event);
    rescale();
}

void ImageOutputView::rescale()
{
    // Before it is shown the widget has no real width yet: natural size until then.
    const int available = isVisible() ? width() : m_image.width();
    const QSize size = fitted(available);
    if (size == m_shown || size.isEmpty())
        return;
    m_shown = size;
    setPixmap(size == m_image.size() ? QPixmap::fromImage(m_image)
                                     : QPixmap::fromImage(m_image.scaled(
                                           size, Qt::KeepAspectRatio, Qt::SmoothTransformation)));
    setFixedHeight(size.height());
}

void ImageOutputView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && rect().contains(event->position().toPoint()))
        emit clicked();
    QLabel::mouseReleaseEvent(event);
}

} // namespace lizard::ui::notebook
