#include "ui/terminal/terminalpane.h"

#include "models/terminals/terminalsession.h"
#include "ui/terminal/terminalview.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QShortcut>
#include <QToolButton>
#include <QVBoxLayout>

namespace lizard::ui {

using models::TerminalSession;

TerminalPane::TerminalPane(client::LizardApi* api, const client::TerminalInfo& terminal,
                           QWidget* parent)
    : QWidget(parent), m_terminal(terminal), m_view(new TerminalView(this)),
      m_session(new TerminalSession(api, terminal.sandboxId, terminal.terminalId, this)),
      m_strip(new QWidget(this)), m_status(new QLabel(m_strip)),
      m_stripAction(new QPushButton(m_strip)), m_findBar(new QWidget(this)),
      m_findText(new QLineEdit(m_findBar))
{
    setObjectName(QStringLiteral("terminalPane"));
    m_view->setObjectName(QStringLiteral("terminalView"));
    m_status->setObjectName(QStringLiteral("terminalStatus"));
    m_status->setWordWrap(true);
    m_stripAction->setObjectName(QStringLiteral("terminalStripAction"));
    auto* strip = new QHBoxLayout(m_strip);
    strip->setContentsMargins(6, 3, 6, 3);
    strip->addWidget(m_status, 1);
    strip->addWidget(m_stripAction);
    m_strip->setAutoFillBackground(true);
    m_strip->hide();

    // Find in the scrollback and the screen.
    m_findText->setObjectName(QStringLiteral("terminalFind"));
    m_findText->setPlaceholderText(tr("Find in terminal"));
    m_findText->setClearButtonEnabled(true);
    auto* prev = new QToolButton(m_findBar);
    prev->setText(tr("Previous"));
    auto* next = new QToolButton(m_findBar);
    next->setText(tr("Next"));
    auto* done = new QToolButton(m_findBar);
    done->setText(tr("Close"));
    auto* find = new QHBoxLayout(m_findBar);
    find->setContentsMargins(4, 2, 4, 2);
    find->addWidget(m_findText, 1);
    find->addWidget(prev);
    find->addWidget(next);
    find->addWidget(done);
    m_findBar->hide();
    connect(m_findText, &QLineEdit::returnPressed, this, [this] { findNext(true); });
    connect(prev, &QToolButton::clicked, this, [this] { findNext(true); });
    connect(next, &QToolButton::clicked, this, [this] { findNext(false); });
    connect(done, &QToolButton::clicked, this, [this] {
        m_findBar->hide();
        m_view->setFocus();
    });
    auto* escape = new QShortcut(QKeySequence(Qt::Key_Escape), m_findBar);
    escape->setContext(Qt::WidgetWithChildrenShortcut);
    connect(escape, &QShortcut::activated, done, &QToolButton::click);
    auto* findKey = new QShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+F")), this);
    findKey->setContext(Qt::WidgetWithChildrenShortcut);
    connect(findKey, &QShortcut::activated, this, &TerminalPane::showFind);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_strip);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_findBar);

    connect(m_view, &TerminalView::input, m_session, &TerminalSession::sendInput);
    connect(m_view, &TerminalView::sizeChanged, m_session, &TerminalSession::resize);
    // Flow control: a program that prints faster than the view parses (`yes`, `cat` of a big
    // file) waits on its terminal instead of filling this process's memory.
    connect(m_session, &TerminalSession::output, this, [this](const QByteArray& bytes) {
        m_view->feed(bytes);
        throttle();
    });
    connect(m_session, &TerminalSession::replayOutput, this, [this](const QByteArray& bytes) {
        m_view->feedReplay(bytes);
        throttle();
    });
    connect(m_view, &TerminalView::drained, this, [this] {
        if (std::exchange(m_outputPaused, false))
            m_session->pauseOutput(false);
    });
    connect(m_session, &TerminalSession::replayStarting, this, [this] {
        m_view->reset();
        m_outputPaused = false; // a new connection, read from the start
    });
    connect(m_session, &TerminalSession::stateChanged, this, &TerminalPane::updateStrip);
    connect(m_view, &TerminalView::titleChanged, this, [this](const QString& title) {
        m_programTitle = title;
        emit titleChanged();
    });
    connect(m_stripAction, &QPushButton::clicked, this, [this] {
        if (m_session->state() == TerminalSession::State::Exited)
            emit newTerminalRequested();
        else
            m_session->attach();
    });
    setFocusProxy(m_view);
    m_session->resize(m_view->columns(), m_view->rows());
    m_session->attach();
}

void TerminalPane::throttle()
{
    if (!m_outputPaused && m_view->pendingBytes() > kMaxPendingOutput) {
        m_outputPaused = true;
        m_session->pauseOutput(true);
    }
}

QString TerminalPane::title() const
{
    if (!m_terminal.name.isEmpty())
        return m_terminal.name;
    if (!m_programTitle.isEmpty())
        return m_programTitle;
    if (m_terminal.cmd.isEmpty())
        return tr("shell");
    // The program, not its path: "-l" and "/bin/bash" say little in a tab.
    QString program = m_terminal.cmd.first().section(QLatin1Char('/'), -1);
    if (m_terminal.cmd.size() >= 3 && m_terminal.cmd.at(1) == QLatin1String("-c"))
        program = m_terminal.cmd.at(2);
    return program.left(40);
}

void TerminalPane::setName(const QString& name)
{
    m_terminal.name = name;
    emit titleChanged();
}

bool TerminalPane::hasExited() const
{
    return m_session->state() == TerminalSession::State::Exited;
}

void TerminalPane::showFind()
{
    m_findBar->show();
    m_findText->setFocus();
    m_findText->selectAll();
}

void TerminalPane::findNext(bool backwards)
{
    const QString text = m_findText->text();
    if (text.isEmpty())
        return;
    const bool found = m_view->find(text, backwards);
    m_findText->setStyleSheet(found ? QString()
                                    : QStringLiteral("QLineEdit { background: #f6d5d5; }"));
}

void TerminalPane::updateStrip()
{
    const auto state = m_session->state();
    const bool show =
        state != TerminalSession::State::Attached && state != TerminalSession::State::Connecting;
    m_status->setText(m_session->statusText());
    switch (state) {
    case TerminalSession::State::Exited:
        m_stripAction->setText(tr("New terminal"));
        m_stripAction->show();
        break;
    case TerminalSession::State::Failed:
    case TerminalSession::State::Detached:
        m_stripAction->setText(tr("Attach again"));
        m_stripAction->show();
        break;
    default:
        m_stripAction->hide();
    }
    QPalette p = m_strip->palette();
    p.setColor(QPalette::Window, state == TerminalSession::State::Exited
                                     ? p.color(QPalette::AlternateBase)
                                     : QColor(0xfc, 0xf0, 0xc8));
    p.setColor(QPalette::WindowText, Qt::black);
    m_strip->setPalette(p);
    m_strip->setVisible(show);
    emit titleChanged();
}

} // namespace lizard::ui
