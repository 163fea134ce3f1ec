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
    const qreal dpr = devicePixelRatioF();
    if ((size == m_shown && dpr == m_shownRatio) || size.isEmpty())
        return;
    m_shown = size;
    m_shownRatio = dpr;
    // On a HiDPI screen (scale 1.5, 2) the shown size has more device pixels than it says: a
    // narrowed image keeps as many of its own pixels as the screen can show, rather than being
    // scaled down to the logical size and blown up again (blurred).
    const QSize device(int(std::lround(size.width() * dpr)), int(std::lround(size.height() * dpr)));
    QPixmap pixmap;
    if (device.width() >= m_image.width()) {
        pixmap = QPixmap::fromImage(m_image);
        pixmap.setDevicePixelRatio(double(m_image.width()) / size.width());
    } else {
        pixmap = QPixmap::fromImage(
            m_image.scaled(device, Qt::KeepAspectRatio, Qt::SmoothTransformation));
        pixmap.setDevicePixelRatio(dpr);
    }
    setPixmap(pixmap);
    setFixedHeight(size.height());
}

void ImageOutputView::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && rect().contains(event->position().toPoint()))
        emit clicked();
    QLabel::mouseReleaseEvent(event);
}

} // namespace lizard::ui::notebook
