#pragma once
// An image output (PNG, or SVG drawn at its own size) inline: at its natural size, scaled down
// to the cell's width when wider, aspect kept. A click opens it full size (ImageDialog).

#include <QImage>
#include <QLabel>

namespace lizard::ui::notebook {

class ImageOutputView : public QLabel
{
    Q_OBJECT
public:
    explicit ImageOutputView(QImage image, QWidget* parent = nullptr);

    const QImage& image() const { return m_image; }
    QSize shownSize() const { return m_shown; } // the size it is drawn at now

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return {16, 16}; }

signals:
    void clicked();

protected:
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;

private:
    QSize fitted(int width) const;
    void rescale();

    QImage m_image;
    QSize m_shown;
    qreal m_shownRatio = 0; // the screen's device pixel ratio it was drawn for
};

} // namespace lizard::ui::notebook
