#include "ui/notebook/notebookheader.h"

#include "models/sandboxtablemodel.h"
#include "models/timeformat.h"
#include "ui/notebook/notebookkernel.h"

#include <QHBoxLayout>
#include <QLabel>

namespace lizard::ui::notebook {

NotebookHeader::NotebookHeader(const QString& sandboxId, QWidget* parent)
    : QWidget(parent), m_sandboxId(sandboxId), m_context(new QLabel), m_kernel(new QLabel), m_timeLeft(new QLabel),
      m_notice(new QLabel)
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 2);
    m_context->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notice->setStyleSheet(QStringLiteral("color:#8d6e00;"));
    m_notice->hide();
    layout->addWidget(m_context);
    layout->addWidget(m_notice, 1);
    layout->addWidget(m_kernel);
    layout->addWidget(m_timeLeft);
    m_kernel->setObjectName(QStringLiteral("kernelState"));
    m_timeLeft->setObjectName(QStringLiteral("timeLeft"));
    setKernelState(QStringLiteral("unknown"));
    m_tick.setInterval(1000);
    connect(&m_tick, &QTimer::timeout, this, &NotebookHeader::updateTimeLeft);
    updateTimeLeft();
}

void NotebookHeader::setContext(const QString& label, const QString& language)
{
    QString text = QStringLiteral("Sandbox %1 · %2").arg(m_sandboxId, label);
    if (!NotebookKernel::keepsState(language))
        text += QStringLiteral(" · no state is kept between runs");
    m_context->setText(text);
}

void NotebookHeader::setKernelState(const QString& state)
{
    static const QHash<QString, QString> colours = {{"idle", "#2e7d32"}, {"busy", "#ef6c00"},
                                                    {"dead", "#c62828"}, {"starting", "#1565c0"}};
    const QString colour = colours.value(state, QStringLiteral("#777"));
    m_kernel->setText(QStringLiteral("<span style=\"color:%1\">●</span> kernel %2").arg(colour, state));
    m_kernel->setProperty("state", state);
}

void NotebookHeader::setSandboxModel(models::SandboxTableModel* model)
{
    m_model = model;
    if (model)
        m_tick.start();
    else
        m_tick.stop();
    updateTimeLeft();
}

void NotebookHeader::setNotice(const QString& text)
{
    m_notice->setText(text);
    m_notice->setVisible(!text.isEmpty());
}

void NotebookHeader::updateTimeLeft()
{
    if (!m_model) {
        m_timeLeft->clear();
        return;
    }
    const int row = m_model->rowOf(m_sandboxId);
    if (row < 0) {
        m_timeLeft->setText(QStringLiteral("sandbox not listed"));
        return;
    }
    const QDateTime endAt = m_model->sandboxAt(row).endAt;
    m_timeLeft->setText(QStringLiteral("time left %1")
                            .arg(models::formatTimeLeft(endAt, QDateTime::currentDateTimeUtc())));
}

QString NotebookHeader::contextText() const { return m_context->text(); }
QString NotebookHeader::kernelText() const { return m_kernel->property("state").toString(); }
QString NotebookHeader::timeLeftText() const { return m_timeLeft->text(); }
QString NotebookHeader::noticeText() const { return m_notice->text(); }

} // namespace lizard::ui::notebook
