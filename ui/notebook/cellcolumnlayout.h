#pragma once
// The notebook's column of cells: each cell as tall as it asks to be at the column's width, one
// below the other. Unlike a QVBoxLayout, which weighs stretch factors and minimum and maximum
// sizes of every item on each pass, a pass here asks each cell for its (cached) height and
// moves only the cells whose place changed: a cell made or grown at the end of a notebook of
// thousands costs a pass of microseconds per cell above it, not a new distribution of space.

#include <QLayout>
#include <QList>

namespace lizard::ui::notebook {

class CellColumnLayout : public QLayout
{
public:
    explicit CellColumnLayout(QWidget* parent = nullptr) : QLayout(parent) {}
    ~CellColumnLayout() override;

    void insertWidget(int index, QWidget* widget);

    void addItem(QLayoutItem* item) override;
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    int count() const override { return int(m_items.size()); }
    QSize sizeHint() const override;
    QSize minimumSize() const override;
    Qt::Orientations expandingDirections() const override { return Qt::Horizontal; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    void setGeometry(const QRect& rect) override;
    void invalidate() override;

private:
    int itemHeight(QLayoutItem* item, int width) const;
    int columnHeight(int width) const;

    QList<QLayoutItem*> m_items;
    mutable int m_cachedWidth = -1;
    mutable int m_cachedHeight = 0;
};

} // namespace lizard::ui::notebook
