#include "ui/hostcheckdialog.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QVBoxLayout>

namespace lizard::ui {

HostCheckDialog::HostCheckDialog(const QString& program, QWidget* parent)
    : QDialog(parent), m_verdict(new QLabel(this)), m_report(new QPlainTextEdit(this))
{
    setWindowTitle(QStringLiteral("Check this computer"));
    setObjectName(QStringLiteral("hostCheck"));
    m_verdict->setObjectName(QStringLiteral("hostCheckVerdict"));
    m_verdict->setWordWrap(true);
    m_report->setObjectName(QStringLiteral("hostCheckReport"));
    m_report->setReadOnly(true);
    m_report->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_report->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_verdict);
    layout->addWidget(m_report, 1);
    layout->addWidget(buttons);
    resize(900, 420);

    if (program.isEmpty()) {
        m_verdict->setText(QStringLiteral("lizard-local was found neither beside the app nor on "
                                          "PATH: nothing to ask. Install lizard-desktop's "
                                          "package, or build it (make build)."));
        return;
    }
    m_verdict->setText(QStringLiteral("Checking this computer with %1 doctor…").arg(program));
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::SeparateChannels);
    connect(m_process, &QProcess::readyReadStandardOutput, this, [this] {
        m_report->moveCursor(QTextCursor::End);
        m_report->insertPlainText(QString::fromUtf8(m_process->readAllStandardOutput()));
    });
    connect(m_process, &QProcess::finished, this, [this](int code, QProcess::ExitStatus status) {
        showResult(status == QProcess::NormalExit ? code : -1);
    });
    connect(m_process, &QProcess::errorOccurred, this, [this, program](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart) {
            m_verdict->setText(QStringLiteral("%1 could not be started.").arg(program));
            emit finished(-1);
        }
    });
    m_process->start(program, {QStringLiteral("doctor")});
}

void HostCheckDialog::showResult(int exitCode)
{
    m_report->moveCursor(QTextCursor::End);
    m_report->insertPlainText(QString::fromUtf8(m_process->readAllStandardOutput()));
    m_verdict->setText(
        exitCode == 0
            ? QStringLiteral("<b>Sandboxes can be made on this computer.</b> Lines marked [--] "
                             "are what it does without, and why.")
        : exitCode == 1
            ? QStringLiteral("<b>Sandboxes cannot be made on this computer.</b> The line "
                             "marked [--] sandboxes says why and what fixes it.")
            : QStringLiteral("<b>The check did not finish</b> (lizard-local doctor ended with "
                             "%1).")
                  .arg(exitCode));
    emit finished(exitCode);
}

QString HostCheckDialog::verdict() const
{
    return m_verdict->text();
}

QString HostCheckDialog::report() const
{
    return m_report->toPlainText();
}

bool HostCheckDialog::isRunning() const
{
    return m_process != nullptr && m_process->state() != QProcess::NotRunning;
}

} // namespace lizard::ui
