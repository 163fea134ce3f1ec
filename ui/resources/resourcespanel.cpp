#include "ui/resources/resourcespanel.h"

#include "models/metricslimits.h"
#include "models/sandboxmetrics.h"
#include "models/sizeformat.h"
#include "ui/resources/metricschart.h"
#include "ui/theme/icontheme.h"

#include <QAction>
#include <QComboBox>
#include <QDateTime>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QToolBar>
#include <QVBoxLayout>

namespace lizard::ui::resources {

using Unit = MetricsChart::Unit;

namespace {

const QColor kResCpuColor(0x1e, 0x88, 0xe5);
const QColor kResMemoryColor(0x8e, 0x44, 0xad);
const QColor kResDiskColor(0x00, 0x89, 0x7b);
const QColor kResPidsColor(0xef, 0x6c, 0x00);
const QColor kResRxColor(0x43, 0xa0, 0x47);
const QColor kResTxColor(0x1e, 0x88, 0xe5);

QString metricsSourceText(const QString& source)
{
    if (source == QLatin1String("cgroup"))
        return QStringLiteral("Figures from the sandbox's cgroup (exact).");
    if (source == QLatin1String("proc"))
        return QStringLiteral("Figures from /proc of the sandbox's processes (lizard-local runs "
                              "without cgroups: memory counts each process's own pages).");
    return {};
}

} // namespace

ResourcesPanel::ResourcesPanel(QWidget* parent)
    : QWidget(parent), m_source(new models::SandboxMetricsSource(this)), m_range(new QComboBox),
      m_warning(new QLabel), m_summary(new QLabel), m_status(new QLabel)
{
    setObjectName(QStringLiteral("resourcesPanel"));
    auto* bar = new QToolBar;
    bar->addWidget(new QLabel(QStringLiteral("Time range: ")));
    m_range->setObjectName(QStringLiteral("metricsRange"));
    m_range->addItem(QStringLiteral("Last 10 minutes"), QStringLiteral("10m"));
    m_range->addItem(QStringLiteral("Last hour"), QStringLiteral("1h"));
    m_range->addItem(QStringLiteral("Last 6 hours"), QStringLiteral("6h"));
    m_range->addItem(QStringLiteral("Last 24 hours"), QStringLiteral("24h"));
    m_range->setCurrentIndex(1);
    bar->addWidget(m_range);
    bar->addSeparator();
    QAction* refresh =
        bar->addAction(IconTheme::icon(QStringLiteral("view-refresh")), QStringLiteral("Refresh"));

    m_warning->setObjectName(QStringLiteral("nearLimitWarning"));
    m_warning->setWordWrap(true);
    m_warning->setVisible(false);
    m_warning->setStyleSheet(
        QStringLiteral("QLabel { background: #fdecea; color: #8a1c1c; border: 1px solid #f5c2c0; "
                       "border-radius: 4px; padding: 6px 8px; }"));
    m_summary->setObjectName(QStringLiteral("metricsSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setObjectName(QStringLiteral("metricsStatus"));
    m_status->setWordWrap(true);

    const struct
    {
        const char* name;
        const char* title;
        Unit unit;
    } kCharts[] = {{"cpu", "CPU", Unit::Cores},
                   {"memory", "Memory", Unit::Bytes},
                   {"disk", "Disk", Unit::Bytes},
                   {"pids", "Processes and threads", Unit::Count},
                   {"network", "Network", Unit::BytesPerSecond},
                   {"diskio", "Disk I/O", Unit::BytesPerSecond}};
    auto* charts = new QWidget;
    auto* grid = new QGridLayout(charts);
    grid->setContentsMargins(4, 4, 4, 4);
    grid->setSpacing(8);
    int i = 0;
    for (const auto& c : kCharts) {
        auto* chart = new MetricsChart(QString::fromUtf8(c.title), c.unit);
        chart->setObjectName(QString::fromLatin1(c.name) + QStringLiteral("Chart"));
        grid->addWidget(chart, i / 2, i % 2);
        m_charts << chart;
        ++i;
    }
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(charts);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(bar);
    auto* head = new QVBoxLayout;
    head->setContentsMargins(6, 2, 6, 2);
    head->addWidget(m_warning);
    head->addWidget(m_summary);
    layout->addLayout(head);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_status);

    connect(m_range, &QComboBox::currentIndexChanged, this,
            [this] { m_source->setRange(m_range->currentData().toString()); });
    connect(refresh, &QAction::triggered, m_source, &models::SandboxMetricsSource::refresh);
    connect(m_source, &models::SandboxMetricsSource::updated, this, [this] {
        m_lastError.clear();
        updateCharts();
    });
    connect(m_source, &models::SandboxMetricsSource::failed, this,
            [this](const client::ApiError& e) {
                if (m_source->unsupported())
                    m_lastError = QStringLiteral(
                        "This server keeps no resource metrics (they are an extension of "
                        "lizard-local).");
                else
                    m_lastError = e.toDisplayString();
                updateStatus();
            });
    updateCharts();
}

void ResourcesPanel::setBackend(client::LizardApi* api)
{
    m_source->setApi(api);
    showSandbox(QString());
}

void ResourcesPanel::showSandbox(const QString& sandboxId)
{
    m_sandboxId = sandboxId;
    m_lastError.clear();
    // Only a visible tab fetches.
    m_source->setSandboxId(isVisible() ? sandboxId : QString());
    updateCharts();
}

void ResourcesPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    m_source->setSandboxId(m_sandboxId);
    m_source->setPolling(true);
}

void ResourcesPanel::hideEvent(QHideEvent* event)
{
    QWidget::hideEvent(event);
    m_source->setPolling(false);
}

MetricsChart* ResourcesPanel::chart(const QString& name) const
{
    for (MetricsChart* c : m_charts)
        if (c->objectName() == name + QStringLiteral("Chart"))
            return c;
    return nullptr;
}

QString ResourcesPanel::summaryText() const
{
    return m_summary->text();
}

QString ResourcesPanel::statusText() const
{
    return m_status->text();
}

void ResourcesPanel::updateCharts()
{
    const client::SandboxMetrics& m = m_source->metrics();
    const bool have =
        m_source->hasMetrics() && m.sandboxId == m_sandboxId && !m_sandboxId.isEmpty();
    const qint64 rangeMs = models::SandboxMetricsSource::rangeMs(m_source->range());
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // Raw samples within ten minutes, else buckets of 30 s or 5 min: a gap of a few of those is
    // a pause (no samples), not a slope.
    const qint64 step = rangeMs <= 10 * 60 * 1000    ? qMax(m.intervalMs, 1000)
                        : rangeMs <= 6 * 3600 * 1000 ? 30 * 1000
                                                     : 5 * 60 * 1000;
    const client::MetricLimits& l = m.limits;
    // A sandbox younger than the range is charted from its start (at least the last two
    // minutes), not squeezed into the right edge of an hour.
    qint64 from = now - rangeMs;
    if (have) {
        qint64 first = now;
        for (const auto* points : {&m.cpu, &m.memory})
            if (!points->isEmpty())
                first = qMin(first, points->first().t);
        for (const client::MetricEvent& e : m.events)
            first = qMin(first, e.t);
        from = qMin(qMax(from, first - step), now - 2 * 60 * 1000);
    }
    for (MetricsChart* c : m_charts) {
        c->setWindow(from, now);
        c->setGapMs(3 * step + 1000);
        c->setEvents(have ? m.events : QList<client::MetricEvent>());
    }
    const auto series = [&](const QString& name, const QColor& color,
                            const QList<client::MetricValue>& points) {
        return MetricsChart::Series{name, color, have ? points : QList<client::MetricValue>()};
    };
    chart(QStringLiteral("cpu"))->setSeries({series(QStringLiteral("cpu"), kResCpuColor, m.cpu)});
    chart(QStringLiteral("cpu"))
        ->setLimit(have ? l.cpus : 0, QStringLiteral("limit %1 vCPU").arg(l.cpus));
    chart(QStringLiteral("memory"))
        ->setSeries({series(QStringLiteral("memory"), kResMemoryColor, m.memory)});
    // A per-process bound is not a line the sandbox's total could cross (metricslimits.h).
    const bool memoryLine = have && l.memoryKind == QLatin1String("cgroup") && l.memoryMb > 0;
    chart(QStringLiteral("memory"))
        ->setLimit(memoryLine ? double(l.memoryMb) * 1024 * 1024 : 0,
                   QStringLiteral("limit %1").arg(models::formatBytes(l.memoryMb * 1024 * 1024)));
    chart(QStringLiteral("disk"))
        ->setSeries({series(QStringLiteral("disk"), kResDiskColor, m.disk)});
    chart(QStringLiteral("disk"))
        ->setLimit(have ? double(l.diskGb) * 1024 * 1024 * 1024 : 0,
                   QStringLiteral("limit %1 GB").arg(l.diskGb));
    chart(QStringLiteral("pids"))
        ->setSeries({series(QStringLiteral("pids"), kResPidsColor, m.pids)});
    chart(QStringLiteral("pids"))
        ->setLimit(have ? double(l.pids) : 0, QStringLiteral("limit %1").arg(l.pids));
    chart(QStringLiteral("network"))
        ->setSeries({series(QStringLiteral("rx"), kResRxColor, m.networkRx),
                     series(QStringLiteral("tx"), kResTxColor, m.networkTx)});
    chart(QStringLiteral("diskio"))
        ->setSeries({series(QStringLiteral("read"), kResRxColor, m.diskRead),
                     series(QStringLiteral("write"), kResTxColor, m.diskWrite)});

    const QStringList warnings = have ? m_source->warnings() : QStringList();
    m_warning->setText(warnings.join(QLatin1Char('\n')));
    m_warning->setVisible(!warnings.isEmpty());
    QString summary;
    if (have && m.latest.t > 0) {
        const client::MetricSnapshot& x = m.latest;
        QStringList parts;
        parts << QStringLiteral("CPU %1").arg(models::formatCores(x.cpu));
        if (client::MetricSnapshot::known(x.memory))
            parts << QStringLiteral("Memory %1").arg(models::formatBytes(qint64(x.memory)));
        if (client::MetricSnapshot::known(x.pids))
            parts << QStringLiteral("%1 processes and threads").arg(qint64(x.pids));
        if (client::MetricSnapshot::known(x.disk))
            parts << QStringLiteral("Disk %1").arg(models::formatBytes(qint64(x.disk)));
        summary = parts.join(QStringLiteral(" · "));
        if (m.status == QLatin1String("paused"))
            summary += QStringLiteral(" · paused: no samples until it is resumed");
    }
    m_summary->setText(summary);
    m_summary->setVisible(!summary.isEmpty());
    updateStatus();
}

void ResourcesPanel::updateStatus()
{
    QString text;
    if (!m_lastError.isEmpty())
        text = m_lastError;
    else if (m_sandboxId.isEmpty())
        text = QStringLiteral("Select a sandbox to see what it uses.");
    else if (!m_source->hasMetrics())
        text = QStringLiteral("Loading…");
    else if (m_source->metrics().latest.t <= 0)
        text = QStringLiteral("No sample yet: the first comes a few seconds after the sandbox "
                              "starts.");
    else
        text = metricsSourceText(m_source->metrics().source);
    m_status->setText(text);
}

} // namespace lizard::ui::resources
