#pragma once
// An image from a sandbox in a tab: shown at its size (scrollable), or fitted to the tab.

#include "ui/documentpage.h"

#include <QImage>

class QLabel;
class QScrollArea;
class QToolButton;

namespace lizard::ui::files {

class ImageViewPage : public DocumentPage
{
    Q_OBJECT
public:
    ImageViewPage(const QString& sandboxId, const QString& path, const QImage& image,
                  QWidget* parent = nullptr);

    QString title() const override;
    QString toolTip() const override;
    QString sandboxId() const override { return m_sandboxId; }
    QString path() const { return m_path; }
    const QImage& image() const { return m_image; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void updatePixmap();

    QString m_sandboxId;
    QString m_path;
    QImage m_image;
    QScrollArea* m_scroll;
    QLabel* m_label;
    QToolButton* m_fit;
};

} // namespace lizard::ui::files
