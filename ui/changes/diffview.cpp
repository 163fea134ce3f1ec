#include "ui/changes/diffview.h"

#include "models/changes/linediff.h"
#include "ui/changes/diffsidemodel.h"
#include "ui/theme/apptheme.h"
#include "ui/theme/icontheme.h"
#include "ui/theme/themecolors.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QStackedWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <optional>

namespace lizard::ui::changes {

using models::changes::LineDiff;

namespace {

// Past this a file is not shown as text: a diff of megabytes is not read by anyone.
constexpr qsizetype kMaxTextBytes = 2 << 20;

bool looksBinary(const QByteArray& data)
{
    return data.left(8000).contains('\0');
}

// One side: a table of line numbers and lines, one row per line of the diff, as wide as its
// longest line (or the view), rows of one text line.
class SideTable : public QTableView
{
public:
    explicit SideTable(DiffSideModel* model)
    {
        setModel(model);
        setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        setShowGrid(false);
        setWordWrap(false);
        setTextElideMode(Qt::ElideNone);
        setSelectionBehavior(SelectRows);
        setSelectionMode(ExtendedSelection);
        setHorizontalScrollMode(ScrollPerPixel);
        setVerticalScrollMode(ScrollPerPixel);
        setEditTriggers(NoEditTriggers);
        horizontalHeader()->hide();
        verticalHeader()->hide();
        horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
        const int line = fontMetrics().lineSpacing() + 2;
        verticalHeader()->setMinimumSectionSize(line);
        verticalHeader()->setDefaultSectionSize(line);
        auto* copy = new QAction(IconTheme::icon(QStringLiteral("edit-copy")),
                                 QStringLiteral("Copy lines"), this);
        copy->setShortcut(QKeySequence::Copy);
        copy->setShortcutContext(Qt::WidgetShortcut);
        connect(copy, &QAction::triggered, this, [this] {
            QList<int> rows;
            for (const QModelIndex& i : selectionModel()->selectedRows())
                rows << i.row();
            std::sort(rows.begin(), rows.end());
            if (!rows.isEmpty())
                QApplication::clipboard()->setText(sideModel()->textOf(rows));
        });
        addAction(copy);
        setContextMenuPolicy(Qt::ActionsContextMenu);
        connect(model, &QAbstractItemModel::modelReset, this, [this] { fitColumns(); });
    }

    DiffSideModel* sideModel() const { return static_cast<DiffSideModel*>(model()); }

    void fitColumns()
    {
        const int ch = fontMetrics().horizontalAdvance(QLatin1Char('0'));
        const int number = (sideModel()->numberDigits() + 1) * ch + 6;
        setColumnWidth(DiffSideModel::NumberColumn, number);
        setColumnWidth(
            DiffSideModel::TextColumn,
            std::max(viewport()->width() - number, (sideModel()->widestLine() + 2) * ch + 8));
    }

protected:
    void resizeEvent(QResizeEvent* e) override
    {
        QTableView::resizeEvent(e);
        fitColumns();
    }
};

} // namespace

DiffView::DiffView(QWidget* parent)
    : QWidget(parent), m_title(new QLabel), m_summary(new QLabel), m_pages(new QStackedWidget),
      m_message(new QLabel), m_leftModel(new DiffSideModel(DiffSideModel::Old, this)),
      m_rightModel(new DiffSideModel(DiffSideModel::New, this))
{
    setObjectName(QStringLiteral("changesDiff"));
    m_title->setObjectName(QStringLiteral("diffTitle"));
    m_summary->setObjectName(QStringLiteral("diffSummary"));
    m_message->setObjectName(QStringLiteral("diffMessage"));
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->setMargin(8);
    m_left = new SideTable(m_leftModel);
    m_right = new SideTable(m_rightModel);
    m_left->setObjectName(QStringLiteral("diffTemplate"));
    m_right->setObjectName(QStringLiteral("diffSandbox"));
    auto* head = new QHBoxLayout;
    head->addWidget(m_title, 1);
    head->addWidget(m_summary);
    auto* sidesPage = new QWidget;
    auto* sides = new QHBoxLayout(sidesPage);
    sides->setContentsMargins(0, 0, 0, 0);
    sides->setSpacing(2);
    sides->addWidget(m_left);
    sides->addWidget(m_right);
    m_pages->addWidget(m_message);
    m_pages->addWidget(sidesPage);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(head);
    layout->addWidget(m_pages, 1);
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
    const ThemeColors& colors = ThemeColors::current();
    const QColor number = palette().color(QPalette::PlaceholderText);
    m_leftModel->setColors(dark ? QColor(0x5c, 0x25, 0x25) : QColor(0xfd, 0xe2, 0xe2),
                           colors.tableStripe, number);
    m_rightModel->setColors(dark ? QColor(0x1f, 0x4a, 0x2c) : QColor(0xdc, 0xf5, 0xe0),
                            colors.tableStripe, number);
}

void DiffView::clear()
{
    showMessage({}, QStringLiteral("Select a file to compare the template's version with the "
                                   "sandbox's."));
}

void DiffView::showMessageOnly(const QString& title, const QString& text)
{
    m_title->setText(title);
    m_summary->clear();
    m_message->setText(text);
    m_pages->setCurrentWidget(m_message);
    m_leftModel->setDiff(nullptr);
    m_rightModel->setDiff(nullptr);
}

void DiffView::showMessage(const QString& title, const QString& text)
{
    ++m_request; // a comparison still running is no longer wanted
    showMessageOnly(title, text);
}

void DiffView::showTexts(const QString& title, const QByteArray* before, const QByteArray* after)
{
    const quint64 request = ++m_request;
    for (const QByteArray* side : {before, after}) {
        QString refusal;
        if (side && side->size() > kMaxTextBytes)
            refusal = QStringLiteral("Too large to compare here (%1 bytes).").arg(side->size());
        else if (side && looksBinary(*side))
            refusal = QStringLiteral("A binary file: no text to compare.");
        if (!refusal.isEmpty()) {
            showMessageOnly(title, refusal);
            emit shown(title);
            return;
        }
    }
    if (title != m_title->text())
        showMessageOnly(title, QStringLiteral("Comparing…"));
    m_summary->setText(QStringLiteral("Comparing…"));
    const std::optional<QByteArray> a = before ? std::optional(*before) : std::nullopt;
    const std::optional<QByteArray> b = after ? std::optional(*after) : std::nullopt;
    auto* watcher = new QFutureWatcher<std::shared_ptr<const LineDiff>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [=, this] {
        watcher->deleteLater();
        if (request != m_request)
            return;
        const auto diff = watcher->result();
        // The same file compared again keeps its place.
        const bool again = title == m_title->text() && m_pages->currentIndex() == 1;
        const int vertical = again ? m_left->verticalScrollBar()->value() : 0;
        const int horizontal = again ? m_left->horizontalScrollBar()->value() : 0;
        m_title->setText(title);
        m_leftModel->setDiff(a ? diff : nullptr, QStringLiteral("(not in %1)").arg(m_reference));
        m_rightModel->setDiff(b ? diff : nullptr, QStringLiteral("(deleted in the sandbox)"));
        m_pages->setCurrentIndex(1);
        m_left->verticalScrollBar()->setValue(vertical);
        m_left->horizontalScrollBar()->setValue(horizontal);
        m_summary->setText(
            QStringLiteral("−%1 +%2 lines%3")
                .arg(diff->removed)
                .arg(diff->added)
                .arg(diff->aligned ? QString() : QStringLiteral(" (rewritten: not aligned)")));
        emit shown(title);
    });
    watcher->setFuture(QtConcurrent::run([a, b]() -> std::shared_ptr<const LineDiff> {
        return std::make_shared<const LineDiff>(models::changes::diffLines(
            a ? QString::fromUtf8(*a) : QString(), b ? QString::fromUtf8(*b) : QString()));
    }));
}

QString DiffView::title() const
{
    return m_title->text();
}

QString DiffView::leftText() const
{
    return m_pages->currentWidget() == m_message ? m_message->text() : m_leftModel->text();
}

QString DiffView::rightText() const
{
    return m_pages->currentWidget() == m_message ? QString() : m_rightModel->text();
}

QString DiffView::summary() const
{
    return m_summary->text();
}

} // namespace lizard::ui::changes
