#include "ui/changes/diffview.h"

#include "models/changes/linediff.h"
#include "ui/theme/apptheme.h"
#include "ui/theme/themecolors.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QVBoxLayout>

namespace lizard::ui::changes {

using models::changes::DiffRow;

namespace {

// Past this a file is not shown as text: a diff of megabytes is not read by anyone.
constexpr qsizetype kMaxTextBytes = 2 << 20;

bool looksBinary(const QByteArray& data)
{
    return data.left(8000).contains('\0');
}

// What a row's cell on one side is: its tint follows the colour scheme.
enum Cell : char { Plain, Changed, Blank };

void tint(QPlainTextEdit* edit, const QVector<char>& cells, const QColor& changed)
{
    const QColor blank = ThemeColors::current().tableStripe;
    QList<QTextEdit::ExtraSelection> selections;
    QTextBlock block = edit->document()->firstBlock();
    for (int i = 0; i < cells.size() && block.isValid(); ++i, block = block.next()) {
        if (cells[i] == Plain)
            continue;
        QTextEdit::ExtraSelection s;
        s.format.setBackground(cells[i] == Blank ? blank : changed);
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(block);
        selections << s;
    }
    edit->setExtraSelections(selections);
}

} // namespace

DiffView::DiffView(QWidget* parent)
    : QWidget(parent), m_title(new QLabel), m_summary(new QLabel), m_left(new QPlainTextEdit),
      m_right(new QPlainTextEdit)
{
    setObjectName(QStringLiteral("changesDiff"));
    m_title->setObjectName(QStringLiteral("diffTitle"));
    m_summary->setObjectName(QStringLiteral("diffSummary"));
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    for (QPlainTextEdit* e : {m_left, m_right}) {
        e->setReadOnly(true);
        e->setFont(mono);
        e->setLineWrapMode(QPlainTextEdit::NoWrap);
    }
    m_left->setObjectName(QStringLiteral("diffTemplate"));
    m_right->setObjectName(QStringLiteral("diffSandbox"));
    auto* head = new QHBoxLayout;
    head->addWidget(m_title, 1);
    head->addWidget(m_summary);
    auto* sides = new QHBoxLayout;
    sides->setSpacing(2);
    sides->addWidget(m_left);
    sides->addWidget(m_right);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(head);
    layout->addLayout(sides, 1);
    // One scroll position for both sides.
    for (auto [a, b] : {std::pair{m_left, m_right}, std::pair{m_right, m_left}}) {
        connect(a->verticalScrollBar(), &QScrollBar::valueChanged, b->verticalScrollBar(),
                &QScrollBar::setValue);
        connect(a->horizontalScrollBar(), &QScrollBar::valueChanged, b->horizontalScrollBar(),
                &QScrollBar::setValue);
    }
    clear();
    AppTheme::follow(this, [this] { retint(); });
}

void DiffView::retint()
{
    const bool dark = AppTheme::instance()->isDark();
    tint(m_left, m_leftCells, dark ? QColor(0x5c, 0x25, 0x25) : QColor(0xfd, 0xe2, 0xe2));
    tint(m_right, m_rightCells, dark ? QColor(0x1f, 0x4a, 0x2c) : QColor(0xdc, 0xf5, 0xe0));
}

void DiffView::clear()
{
    showMessage({}, QStringLiteral("Select a file to compare the template's version with the "
                                   "sandbox's."));
}

void DiffView::showMessage(const QString& title, const QString& text)
{
    m_title->setText(title);
    m_summary->clear();
    m_left->setPlainText(text);
    m_right->clear();
    m_right->setVisible(false);
    m_leftCells.clear();
    m_rightCells.clear();
    retint();
}

void DiffView::showTexts(const QString& title, const QByteArray* before, const QByteArray* after)
{
    // The same file read again keeps its place.
    const bool again = title == m_title->text() && m_right->isVisible();
    const int vertical = again ? m_left->verticalScrollBar()->value() : 0;
    const int horizontal = again ? m_left->horizontalScrollBar()->value() : 0;
    m_title->setText(title);
    for (const QByteArray* side : {before, after}) {
        if (side && side->size() > kMaxTextBytes)
            return showMessage(
                title, QStringLiteral("Too large to compare here (%1 bytes).").arg(side->size()));
        if (side && looksBinary(*side))
            return showMessage(title, QStringLiteral("A binary file: no text to compare."));
    }
    const auto diff = models::changes::diffLines(before ? QString::fromUtf8(*before) : QString(),
                                                 after ? QString::fromUtf8(*after) : QString());
    QStringList left, right;
    m_leftCells.clear();
    m_rightCells.clear();
    for (const DiffRow& row : diff.rows) {
        left << (row.left >= 0 ? diff.oldLines[row.left] : QString());
        right << (row.right >= 0 ? diff.newLines[row.right] : QString());
        m_leftCells << (row.left < 0 ? Blank : row.kind == DiffRow::Same ? Plain : Changed);
        m_rightCells << (row.right < 0 ? Blank : row.kind == DiffRow::Same ? Plain : Changed);
    }
    if (!before)
        m_leftCells.clear();
    if (!after)
        m_rightCells.clear();
    m_right->setVisible(true);
    m_left->setPlainText(before ? left.join(QLatin1Char('\n'))
                                : QStringLiteral("(not in %1)").arg(m_reference));
    m_right->setPlainText(after ? right.join(QLatin1Char('\n'))
                                : QStringLiteral("(deleted in the sandbox)"));
    retint();
    m_left->verticalScrollBar()->setValue(vertical);
    m_left->horizontalScrollBar()->setValue(horizontal);
    m_summary->setText(
        QStringLiteral("−%1 +%2 lines%3")
            .arg(diff.removed)
            .arg(diff.added)
            .arg(diff.aligned ? QString() : QStringLiteral(" (rewritten: not aligned)")));
}

QString DiffView::title() const
{
    return m_title->text();
}

QString DiffView::leftText() const
{
    return m_left->toPlainText();
}

QString DiffView::rightText() const
{
    return m_right->isVisible() ? m_right->toPlainText() : QString();
}

QString DiffView::summary() const
{
    return m_summary->text();
}

} // namespace lizard::ui::changes
