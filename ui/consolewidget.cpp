#include "ui/consolewidget.h"

#include "models/consolesession.h"
#include "ui/consoleview.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QVBoxLayout>

namespace lizard::ui {

using models::ConsoleSession;

ConsoleWidget::ConsoleWidget(QWidget* parent)
    : QWidget(parent), m_view(new ConsoleView(this)), m_input(new QLineEdit(this)),
      m_run(new QPushButton(QStringLiteral("Run"), this)),
      m_stop(new QPushButton(QStringLiteral("Stop"), this)),
      m_save(new QPushButton(QStringLiteral("Save output…"), this)), m_status(new QLabel(this))
{
    m_input->setPlaceholderText(
        QStringLiteral("Command, e.g. ls /; python3 -c 'print(6*7)'   (Up/Down: history)"));
    m_input->setFont(m_view->font());
    m_input->installEventFilter(this);
    m_input->setObjectName(QStringLiteral("consoleCommandLine"));
    m_view->setObjectName(QStringLiteral("consoleOutput"));
    m_status->setObjectName(QStringLiteral("consoleStatus"));
    m_status->setMinimumWidth(90);
    m_stop->setEnabled(false);
    m_run->setDefault(true);

    auto* prompt = new QLabel(QStringLiteral("$"), this);
    prompt->setFont(m_view->font());
    auto* line = new QHBoxLayout;
    line->addWidget(prompt);
    line->addWidget(m_input, 1);
    line->addWidget(m_run);
    line->addWidget(m_stop);
    line->addWidget(m_status);
    line->addWidget(m_save);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addLayout(line);

    connect(m_input, &QLineEdit::returnPressed, this, &ConsoleWidget::runTyped);
    connect(m_run, &QPushButton::clicked, this, &ConsoleWidget::runTyped);
    connect(m_stop, &QPushButton::clicked, this, [this] {
        if (m_session)
            m_session->stop();
    });
    connect(m_save, &QPushButton::clicked, this, &ConsoleWidget::saveOutput);
    setEnabled(false);
}

void ConsoleWidget::setSession(ConsoleSession* session)
{
    if (m_session)
        m_session->disconnect(this);
    m_session = session;
    setEnabled(session != nullptr);
    if (session == nullptr)
        return;
    connect(session, &ConsoleSession::commandStarted, this, [this](const QString& command) {
        m_view->appendMarker(ConsoleView::Marker::Command, QStringLiteral("$ ") + command);
        setStatus(QStringLiteral("running…"), QStringLiteral("#1f4e9a"));
    });
    connect(session, &ConsoleSession::output, m_view, &ConsoleView::enqueue);
    // The session words each ending (exit, timeout, kill, stop, lost connection) distinctly.
    connect(session, &ConsoleSession::commandFinished, this, [this, session](int code) {
        const bool ok = code == 0;
        m_view->appendMarker(ok ? ConsoleView::Marker::ExitOk : ConsoleView::Marker::ExitFailed,
                             session->endingText());
        setStatus(QStringLiteral("exit %1").arg(code),
                  ok ? QStringLiteral("#2e7d32") : QStringLiteral("#b02020"));
    });
    connect(session, &ConsoleSession::commandStopped, this, [this, session] {
        m_view->appendMarker(ConsoleView::Marker::Note, session->endingText());
        setStatus(QStringLiteral("stopped"), QStringLiteral("#b06000"));
    });
    connect(session, &ConsoleSession::commandFailed, this,
            [this, session](const client::ApiError& error) {
                m_view->appendMarker(ConsoleView::Marker::ExitFailed, session->endingText());
                const bool lost = error.kind == client::ApiError::Kind::Network;
                setStatus(lost ? QStringLiteral("connection lost") : QStringLiteral("failed"),
                          QStringLiteral("#b02020"));
                emit errorOccurred(error);
            });
    connect(session, &ConsoleSession::logError, this, &ConsoleWidget::message);
    connect(session, &ConsoleSession::runningChanged, this, &ConsoleWidget::setRunning);
    setRunning(session->isRunning());
}

models::ConsoleSession* ConsoleWidget::session() const
{
    return m_session;
}

QString ConsoleWidget::statusText() const
{
    return m_status->text();
}

void ConsoleWidget::setStatus(const QString& text, const QString& color)
{
    m_status->setText(text);
    m_status->setStyleSheet(QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(color));
}

void ConsoleWidget::setRunning(bool running)
{
    m_run->setEnabled(!running);
    m_stop->setEnabled(running);
}

void ConsoleWidget::runTyped()
{
    const QString command = m_input->text();
    if (command.trimmed().isEmpty())
        return;
    runCommand(command);
}

void ConsoleWidget::runCommand(const QString& command)
{
    if (!m_session)
        return;
    if (m_session->isRunning()) {
        emit message(QStringLiteral("A command is still running; stop it first."));
        return;
    }
    if (m_session->run(command))
        m_input->clear();
}

bool ConsoleWidget::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_input && event->type() == QEvent::KeyPress && m_session) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Up) {
            m_input->setText(m_session->history().previous(m_input->text()));
            return true;
        }
        if (key->key() == Qt::Key_Down) {
            m_input->setText(m_session->history().next(m_input->text()));
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool ConsoleWidget::saveOutputTo(const QString& path, QString* error)
{
    if (!m_session) {
        if (error)
            *error = QStringLiteral("No sandbox selected.");
        return false;
    }
    if (!m_session->log().saveTo(path)) {
        if (error)
            *error = m_session->log().errorString();
        return false;
    }
    return true;
}

void ConsoleWidget::saveOutput()
{
    if (!m_session)
        return;
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    const QString path = QFileDialog::getSaveFileName(
        this, QStringLiteral("Save console output"),
        dir + QStringLiteral("/%1-output.txt").arg(m_session->sandboxId()),
        QStringLiteral("Text files (*.txt *.log);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (saveOutputTo(path, &error))
        emit message(
            QStringLiteral("Saved %1 lines to %2").arg(m_session->log().lineCount()).arg(path));
    else
        emit message(QStringLiteral("Save output failed: ") + error);
}

} // namespace lizard::ui
