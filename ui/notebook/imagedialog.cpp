#include "ui/notebook/imagedialog.h"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QImageWriter>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

ImageDialog::ImageDialog(QImage image, QWidget* parent) : QDialog(parent), m_image(std::move(image))
{
    setWindowTitle(QStringLiteral("Image — %1 × %2").arg(m_image.width()).arg(m_image.height()));
    auto* label = new QLabel;
    label->setPixmap(QPixmap::fromImage(m_image));
    auto* scroll = new QScrollArea;
    scroll->setWidget(label);
    scroll->setAlignment(Qt::AlignCenter);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* save =
        buttons->addButton(QStringLiteral("Save as PNG…"), QDialogButtonBox::ActionRole);
    save->setObjectName(QStringLiteral("saveImage"));
    connect(save, &QPushButton::clicked, this, &ImageDialog::saveAs);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(scroll);
    layout->addWidget(buttons);
    resize(std::min(m_image.width() + 60, 1400), std::min(m_image.height() + 100, 1000));
}

QString ImageDialog::saveTo(const QString& path) const
{
    QImageWriter writer(path, "png");
    if (!writer.write(m_image))
        return QStringLiteral("Cannot save %1: %2").arg(path, writer.errorString());
    return {};
}

void ImageDialog::saveAs()
{
    QString path = QFileDialog::getSaveFileName(this, QStringLiteral("Save image"),
                                                QDir::homePath() + "/figure.png",
                                                QStringLiteral("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive))
        path += QLatin1String(".png");
    const QString error = saveTo(path);
    if (!error.isEmpty())
        QMessageBox::warning(this, QStringLiteral("Save image"), error);
}

} // namespace lizard::ui::notebook
