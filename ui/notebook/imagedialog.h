#pragma once
// An output image at full size (scrolls when larger than the screen), with "Save as PNG…".

#include <QDialog>
#include <QImage>

namespace lizard::ui::notebook {

class ImageDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ImageDialog(QImage image, QWidget* parent = nullptr);

    // Writes the image as PNG. Empty on success, else the reason.
    QString saveTo(const QString& path) const;

private:
    void saveAs();

    QImage m_image;
};

} // namespace lizard::ui::notebook
