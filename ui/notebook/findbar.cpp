#include "ui/notebook/findbar.h"

#include "ui/notebook/notebookfinder.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QToolButton>
#include <QVBoxLayout>

namespace lizard::ui::notebook {

namespace {
QToolButton* toolButton(const QString& text, const QString& tip, const QString& name)
{
    auto* button = new QToolButton;
    button->setText(text);
    button->setToolTip(tip);
    button->setObjectName(name);
    button->setAutoRaise(true);
    return button;
}
} // namespace

FindBar::FindBar(NotebookFinder* finder, QWidget* parent)
    : QWidget(parent), m_finder(finder), m_find(new QLineEdit), m_count(new QLabel),
      m_case(toolButton(QStringLiteral("Aa"), QStringLiteral("Match case"),
                        QStringLiteral("findCase"))),
      m_replaceToggle(toolButton(QStringLiteral("⇄"), QStringLiteral("Replace (Ctrl+H)"),
                                 QStringLiteral("findReplaceToggle"))),
      m_replaceRow(new QWidget), m_replace(new QLineEdit), m_replaced(new QLabel)
{
    setObjectName(QStringLiteral("findBar"));
    setAutoFillBackground(true);
    m_find->setObjectName(QStringLiteral("findField"));
    m_find->setPlaceholderText(QStringLiteral("Find in cells and outputs"));
    m_find->setClearButtonEnabled(true);
    m_find->setMinimumWidth(260);
    m_find->setMaximumWidth(520);
    m_count->setObjectName(QStringLiteral("findCount"));
    m_count->setMinimumWidth(
        m_count->fontMetrics().horizontalAdvance(QStringLiteral("0000 of 00000")));
    m_case->setCheckable(true);
    m_replaceToggle->setCheckable(true);
    QToolButton* previous =
        toolButton(QStringLiteral("↑"), QStringLiteral("Previous match (Shift+Enter, Shift+F3)"),
                   QStringLiteral("findPrevious"));
    QToolButton* next = toolButton(QStringLiteral("↓"), QStringLiteral("Next match (Enter, F3)"),
                                   QStringLiteral("findNext"));
    QToolButton* close =
        toolButton(QStringLiteral("✕"), QStringLiteral("Close (Esc)"), QStringLiteral("findClose"));

    auto* findRow = new QHBoxLayout;
    findRow->setContentsMargins(6, 4, 6, 2);
    findRow->addWidget(m_replaceToggle);
    findRow->addWidget(m_find);
    findRow->addWidget(m_count);
    findRow->addWidget(m_case);
    findRow->addWidget(previous);
    findRow->addWidget(next);
    findRow->addStretch(1);
    findRow->addWidget(close);

    m_replace->setObjectName(QStringLiteral("replaceField"));
    m_replace->setPlaceholderText(QStringLiteral("Replace in cell sources"));
    auto* replaceOne = new QPushButton(QStringLiteral("Replace"));
    replaceOne->setObjectName(QStringLiteral("replaceOne"));
    replaceOne->setToolTip(
        QStringLiteral("Replace the current match in its cell's source and go to the next "
                       "(outputs are never changed)"));
    auto* replaceAll = new QPushButton(QStringLiteral("Replace all"));
    replaceAll->setObjectName(QStringLiteral("replaceAll"));
    replaceAll->setToolTip(QStringLiteral(
        "Replace every match in the cells' sources; Ctrl+Z in a cell undoes its part"));
    m_replaced->setObjectName(QStringLiteral("replacedCount"));
    auto* replaceRow = new QHBoxLayout(m_replaceRow);
    replaceRow->setContentsMargins(6 + m_replaceToggle->sizeHint().width() + 6, 0, 6, 4);
    m_replace->setMinimumWidth(260);
    m_replace->setMaximumWidth(520);
    replaceRow->addWidget(m_replace);
    replaceRow->addWidget(replaceOne);
    replaceRow->addWidget(replaceAll);
    replaceRow->addWidget(m_replaced);
    replaceRow->addStretch(1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(findRow);
    layout->addWidget(m_replaceRow);
    m_replaceRow->hide();

    m_find->installEventFilter(this);
    m_replace->installEventFilter(this);
    connect(m_find, &QLineEdit::textChanged, this, &FindBar::updateQuery);
    connect(m_case, &QToolButton::toggled, this, &FindBar::updateQuery);
    connect(next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(previous, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(close, &QToolButton::clicked, this, &FindBar::closeBar);
    connect(m_replaceToggle, &QToolButton::toggled, this, &FindBar::setReplaceShown);
    connect(replaceOne, &QPushButton::clicked, this, [this] {
        m_finder->replaceCurrent(m_replace->text());
        m_replaced->clear();
    });
    connect(replaceAll, &QPushButton::clicked, this, [this] {
        const int n = m_finder->replaceAll(m_replace->text());
        m_replaced->setText(n == 1 ? QStringLiteral("1 replaced")
                                   : QStringLiteral("%1 replaced").arg(n));
    });
    connect(m_finder, &NotebookFinder::resultsChanged, this, &FindBar::updateCount);
    hide();
}

QString FindBar::countText() const
{
    return m_count->text();
}

bool FindBar::isReplaceShown() const
{
    return m_replaceToggle->isChecked();
}

void FindBar::openFind()
{
    show();
    m_finder->setActive(true);
    updateQuery();
    m_find->setFocus(Qt::ShortcutFocusReason);
    m_find->selectAll();
}

void FindBar::openReplace()
{
    m_replaceToggle->setChecked(true);
    openFind();
}

void FindBar::closeBar()
{
    m_finder->setActive(false);
    hide();
}

void FindBar::setReplaceShown(bool shown)
{
    m_replaceRow->setVisible(shown);
    m_replaced->clear();
}

void FindBar::findNext()
{
    m_finder->next();
}

void FindBar::findPrevious()
{
    m_finder->previous();
}

void FindBar::updateQuery()
{
    m_finder->setQuery(m_find->text(),
                       m_case->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive);
    updateCount();
}

void FindBar::updateCount()
{
    m_count->setText(m_finder->countText());
    const bool none =
        !m_find->text().isEmpty() && m_finder->matches().isEmpty() && !m_finder->isSearching();
    m_find->setStyleSheet(none ? QStringLiteral("QLineEdit { background: #ffe0e0; }") : QString());
}

bool FindBar::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        const bool shift = key->modifiers() & Qt::ShiftModifier;
        if (key->key() == Qt::Key_Escape) {
            closeBar();
            return true;
        }
        if (key->key() == Qt::Key_F3 ||
            (watched == m_find && (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter))) {
            shift ? findPrevious() : findNext();
            return true;
        }
        if (watched == m_replace && (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter)) {
            m_finder->replaceCurrent(m_replace->text());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace lizard::ui::notebook
