#include "ui/emptyprojectview.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace lizard::ui {

EmptyProjectView::EmptyProjectView(QWidget* parent)
    : QWidget(parent), m_notebook(new QPushButton(this)), m_sandbox(new QPushButton(this)),
      m_sdk(new QLabel(this)), m_problem(new QFrame(this)), m_problemText(new QLabel(this)),
      m_fix(new QLabel(this)), m_copyFix(new QPushButton(QStringLiteral("Copy command"), this))
{
    setObjectName(QStringLiteral("emptyProject"));
    auto* title = new QLabel(QStringLiteral("<h3>This project has no sandboxes yet</h3>"), this);
    auto* what = new QLabel(
        QStringLiteral("A sandbox is an isolated Linux machine for running code: its own "
                       "processes, files and network, gone when its lifetime ends. "
                       "A notebook runs Python in one."),
        this);
    what->setWordWrap(true);
    m_notebook->setObjectName(QStringLiteral("emptyNewNotebook"));
    m_notebook->setDefault(true);
    m_notebook->setMinimumHeight(36);
    QFont big = m_notebook->font();
    big.setBold(true);
    big.setPointSizeF(big.pointSizeF() * 1.15);
    m_notebook->setFont(big);
    m_sandbox->setObjectName(QStringLiteral("emptyNewSandbox"));
    m_sandbox->setMinimumHeight(36);
    m_sdk->setObjectName(QStringLiteral("emptySdkHint"));
    m_sdk->setWordWrap(true);
    m_sdk->setTextInteractionFlags(Qt::TextSelectableByMouse);

    // What stops sandboxes here, in the palette's colours with a warning edge, light or dark.
    m_problem->setObjectName(QStringLiteral("emptyHostProblem"));
    m_problem->setFrameShape(QFrame::StyledPanel);
    m_problem->setStyleSheet(QStringLiteral(
        "#emptyHostProblem { border: 1px solid #c0392b; border-left: 4px solid #c0392b; }"));
    m_problemText->setObjectName(QStringLiteral("emptyHostProblemText"));
    m_problemText->setWordWrap(true);
    m_problemText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fix->setObjectName(QStringLiteral("emptyHostFix"));
    m_fix->setWordWrap(true);
    m_fix->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_fix->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_copyFix->setObjectName(QStringLiteral("emptyCopyFix"));
    connect(m_copyFix, &QPushButton::clicked, this,
            [this] { QApplication::clipboard()->setText(m_fixCommand); });
    auto* problemColumn = new QVBoxLayout(m_problem);
    auto* problemTitle =
        new QLabel(QStringLiteral("<b>Sandboxes cannot be made on this computer</b>"), m_problem);
    problemColumn->addWidget(problemTitle);
    problemColumn->addWidget(m_problemText);
    auto* fixRow = new QHBoxLayout;
    fixRow->addWidget(m_fix, 1);
    fixRow->addWidget(m_copyFix, 0, Qt::AlignTop);
    problemColumn->addLayout(fixRow);
    m_problem->hide();

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_notebook);
    buttons->addWidget(m_sandbox);
    buttons->addStretch();
    auto* column = new QVBoxLayout;
    column->setSpacing(8);
    column->addWidget(m_problem);
    column->addWidget(title);
    column->addWidget(what);
    column->addLayout(buttons);
    column->addWidget(m_sdk);
    column->addStretch();
    auto* box = new QWidget;
    box->setLayout(column);
    box->setMaximumWidth(720);
    box->setContentsMargins(16, 0, 16, 0);
    // The sandbox area can be short (the tools below share it): scroll rather than clip.
    auto* scroll = new QScrollArea(this);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setWidget(box);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    bind(m_notebook, nullptr);
    bind(m_sandbox, nullptr);
    setServer({}, {});
}

void EmptyProjectView::setHostProblem(const QString& text)
{
    const qsizetype at = text.lastIndexOf(QLatin1String(" Fix: "));
    const QString why = at < 0 ? text : text.left(at);
    m_fixCommand = at < 0 ? QString() : text.mid(at + 6).trimmed();
    m_problemText->setText(why);
    m_fix->setText(m_fixCommand.isEmpty() ? QString()
                                          : QStringLiteral("To fix it: ") + m_fixCommand);
    m_fix->setVisible(!m_fixCommand.isEmpty());
    m_copyFix->setVisible(!m_fixCommand.isEmpty());
    m_problem->setVisible(!text.isEmpty());
}

QString EmptyProjectView::hostProblemText() const
{
    return m_problemText->text().isEmpty()
               ? QString()
               : m_problemText->text() + QLatin1Char('\n') + m_fix->text();
}

void EmptyProjectView::bind(QPushButton* button, QAction* action)
{
    button->setVisible(action != nullptr);
    if (action == nullptr)
        return;
    // The button mirrors the action: its text (without the menu's "&"), tooltip and enabled state.
    const auto mirror = [button, action] {
        button->setText(QString(action->text()).remove(QLatin1Char('&')));
        button->setToolTip(action->toolTip());
        button->setEnabled(action->isEnabled());
    };
    mirror();
    connect(action, &QAction::changed, button, mirror);
    connect(button, &QPushButton::clicked, action, &QAction::trigger);
}

void EmptyProjectView::setNewNotebookAction(QAction* action)
{
    bind(m_notebook, action);
}

void EmptyProjectView::setNewSandboxAction(QAction* action)
{
    bind(m_sandbox, action);
}

void EmptyProjectView::setServer(const QString& url, const QString& keyFile)
{
    m_sdk->setVisible(!url.isEmpty());
    if (url.isEmpty()) {
        m_sdk->clear();
        return;
    }
    QString text =
        QStringLiteral("From the official SDK (Python or TypeScript), use this server with "
                       "<code>LIZARD_API_URL=%1</code>")
            .arg(url.toHtmlEscaped());
    if (!keyFile.isEmpty())
        text += QStringLiteral(" and the key in <code>%1</code>").arg(keyFile.toHtmlEscaped());
    else
        text += QStringLiteral(" and your API key in <code>LIZARD_API_KEY</code>");
    m_sdk->setText(text + QLatin1Char('.'));
}

QString EmptyProjectView::sdkText() const
{
    return m_sdk->isVisibleTo(this) ? m_sdk->text() : QString();
}

} // namespace lizard::ui
