#include "ui/resources/metricschart.h"

#include "models/metricslimits.h"
#include "models/sizeformat.h"

#include <QDateTime>
#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QStringList>
#include <QToolTip>
#include <cmath>

namespace lizard::ui::resources {

namespace {

constexpr int kChartAxisWidth = 58;   // the value labels, left of the plot
constexpr int kChartTitleHeight = 22; // title and latest value
constexpr int kChartTimeHeight = 18;  // the time labels, below the plot

// 1, 2 or 5 times a power of ten, at or above v.
double chartNiceCeil(double v)
{
    if (v <= 0)
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= v * 0.999)
            return m * p;
    return 10 * p;
}

// Bytes scale by powers of 1024 so that the grid reads 256 MB, 512 MB, 1 GB.
double chartNiceCeilBytes(double v)
{
    if (v <= 1024)
        return chartNiceCeil(v);
    double unit = 1;
    while (v >= unit * 1024)
        unit *= 1024;
    const double x = v / unit;
    for (double m : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0})
        if (m >= x * 0.999)
            return m * unit;
    return 1024 * unit;
}

QString chartEventLabel(const QString& kind)
{
    if (kind == QLatin1String("oom"))
        return QStringLiteral("OOM");
    return kind;
}

} // namespace

QColor metricEventColor(const QString& kind)
{
    if (kind == QLatin1String("oom"))
        return QColor(0xd3, 0x2f, 0x2f);
    if (kind == QLatin1String("paused"))
        return QColor(0x8a, 0x8a, 0x8a);
    if (kind == QLatin1String("resumed") || kind == QLatin1String("created"))
        return QColor(0x2e, 0x9d, 0x4f);
    if (kind == QLatin1String("snapshot") || kind == QLatin1String("fork"))
        return QColor(0x7b, 0x4f, 0xc9);
    return QColor(0xd0, 0x8a, 0x10); // timeout changed
}

MetricsChart::MetricsChart(const QString& title, Unit unit, QWidget* parent)
    : QWidget(parent), m_title(title), m_unit(unit)
{
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void MetricsChart::setWindow(qint64 fromMs, qint64 toMs)
{
    m_from = fromMs;
    m_to = qMax(fromMs + 1, toMs);
    update();
}

void MetricsChart::setSeries(const QList<Series>& series)
{
    m_series = series;
    update();
}

void MetricsChart::setLimit(double value, const QString& label)
{
    m_limit = value > 0 ? value : 0;
    m_limitLabel = label;
    update();
}

void MetricsChart::setEvents(const QList<client::MetricEvent>& events)
{
    m_events = events;
    update();
}

double MetricsChart::latestValue(int i) const
{
    if (i < 0 || i >= m_series.size() || m_series.at(i).points.isEmpty())
        return client::MetricSnapshot::kUnknown;
    return m_series.at(i).points.last().value;
}

QString MetricsChart::formatValue(double v) const
{
    if (!client::MetricSnapshot::known(v))
        return QStringLiteral("–");
    switch (m_unit) {
    case Unit::Cores:
        return models::formatCores(v);
    case Unit::Bytes:
        return models::formatBytes(qint64(v + 0.5));
    case Unit::BytesPerSecond:
        return models::formatRate(v);
    case Unit::Count:
        return QString::number(qint64(v + 0.5));
    }
    return {};
}

QString MetricsChart::latestText() const
{
    QStringList parts;
    for (int i = 0; i < m_series.size(); ++i) {
        const QString v = formatValue(latestValue(i));
        parts << (m_series.size() > 1 ? m_series.at(i).name + QLatin1Char(' ') + v : v);
    }
    return parts.join(QStringLiteral(" · "));
}

double MetricsChart::scaleMax() const
{
    double top = m_limit;
    for (const Series& s : m_series)
        for (const client::MetricValue& p : s.points)
            if (p.t >= m_from)
                top = qMax(top, p.value);
    if (m_unit == Unit::Cores)
        top = qMax(top, 0.1);
    if (m_unit == Unit::Count)
        top = qMax(top, 5.0);
    if (m_unit == Unit::Bytes || m_unit == Unit::BytesPerSecond)
        top = qMax(top, 1000.0); // an idle network's axis reads 0 to 1 KB/s, not "1 B/s" thrice
    top *= 1.08;                 // the limit line and the peaks stay off the top edge
    return m_unit == Unit::Bytes || m_unit == Unit::BytesPerSecond ? chartNiceCeilBytes(top)
                                                                   : chartNiceCeil(top);
}

QRectF MetricsChart::plotRect() const
{
    return QRectF(kChartAxisWidth, kChartTitleHeight + 4, qMax(10, width() - kChartAxisWidth - 10),
                  qMax(10, height() - kChartTitleHeight - 4 - kChartTimeHeight));
}

double MetricsChart::xOf(qint64 t, const QRectF& plot) const
{
    return plot.left() + plot.width() * double(t - m_from) / double(m_to - m_from);
}

void MetricsChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.window());
    const QRectF plot = plotRect();
    p.fillRect(plot, pal.base());
    p.setRenderHint(QPainter::Antialiasing, true);

    // Title, and the latest value on the right.
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(pal.color(QPalette::WindowText));
    const QRectF titleRect(plot.left(), 0, plot.width(), kChartTitleHeight);
    p.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter, m_title);
    p.setFont(font());
    p.drawText(titleRect, Qt::AlignRight | Qt::AlignVCenter, latestText());

    // Value grid and labels.
    const double top = scaleMax();
    const auto yOf = [&](double v) { return plot.bottom() - plot.height() * v / top; };
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlpha(90);
    QFont small = font();
    small.setPointSizeF(qMax(6.0, font().pointSizeF() * 0.85));
    p.setFont(small);
    for (int i = 0; i <= 4; ++i) {
        const double v = top * i / 4;
        const double y = yOf(v);
        p.setPen(QPen(grid, 1));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRectF(0, y - 8, kChartAxisWidth - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                   formatValue(v));
    }
    // Time labels: five ticks, hours and minutes (seconds within ten minutes).
    const bool seconds = m_to - m_from <= 15 * 60 * 1000;
    for (int i = 0; i <= 4; ++i) {
        const qint64 t = m_from + (m_to - m_from) * i / 4;
        const double x = xOf(t, plot);
        p.setPen(QPen(grid, 1));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.setPen(pal.color(QPalette::PlaceholderText));
        const QString text = QDateTime::fromMSecsSinceEpoch(t).toString(
            seconds ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm"));
        const Qt::Alignment align = i == 0   ? Qt::AlignLeft
                                    : i == 4 ? Qt::AlignRight
                                             : Qt::AlignHCenter;
        const QRectF r = i == 0   ? QRectF(x, plot.bottom() + 2, 80, kChartTimeHeight - 2)
                         : i == 4 ? QRectF(x - 80, plot.bottom() + 2, 80, kChartTimeHeight - 2)
                                  : QRectF(x - 40, plot.bottom() + 2, 80, kChartTimeHeight - 2);
        p.drawText(r, align | Qt::AlignVCenter, text);
    }

    p.save();
    p.setClipRect(plot);
    // The series: a line, the first with a light fill beneath.
    for (int si = 0; si < m_series.size(); ++si) {
        const Series& s = m_series.at(si);
        QList<QPolygonF> runs;
        QPolygonF run;
        qint64 lastT = 0;
        for (const client::MetricValue& v : s.points) {
            if (v.t < m_from - m_gapMs)
                continue;
            const QPointF pt(xOf(v.t, plot), yOf(v.value));
            if (!run.isEmpty() && m_gapMs > 0 && v.t - lastT > m_gapMs) {
                runs << run;
                run.clear();
            }
            run << pt;
            lastT = v.t;
        }
        if (!run.isEmpty())
            runs << run;
        for (const QPolygonF& r : runs) {
            if (si == 0) {
                QPolygonF area = r;
                area << QPointF(r.last().x(), plot.bottom())
                     << QPointF(r.first().x(), plot.bottom());
                QColor fill = s.color;
                fill.setAlpha(45);
                p.setPen(Qt::NoPen);
                p.setBrush(fill);
                p.drawPolygon(area);
            }
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(s.color, 1.6));
            if (r.size() == 1)
                p.drawEllipse(r.first(), 1.5, 1.5);
            else
                p.drawPolyline(r);
        }
    }
    // The limit.
    if (m_limit > 0) {
        const QColor red(0xd3, 0x2f, 0x2f);
        const double y = yOf(m_limit);
        p.setPen(QPen(red, 1.2, Qt::DashLine));
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setFont(small);
        p.drawText(QRectF(plot.left() + 4, y - 16, plot.width() - 8, 15),
                   Qt::AlignRight | Qt::AlignBottom, m_limitLabel);
    }
    // Lifecycle events: a dotted line and their name at the top.
    p.setFont(small);
    for (const client::MetricEvent& e : m_events) {
        if (e.t < m_from || e.t > m_to)
            continue;
        const double x = xOf(e.t, plot);
        const QColor c = metricEventColor(e.kind);
        p.setPen(QPen(c, 1.2, Qt::DotLine));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.setPen(c);
        p.drawText(QRectF(x + 3, plot.top() + 1, 80, 14), Qt::AlignLeft | Qt::AlignTop,
                   chartEventLabel(e.kind));
    }
    p.restore();
    // Legend of a two-series chart, bottom right inside the plot.
    if (m_series.size() > 1) {
        double x = plot.right() - 6;
        for (int i = int(m_series.size()) - 1; i >= 0; --i) {
            const QString name = m_series.at(i).name;
            const double w = p.fontMetrics().horizontalAdvance(name);
            x -= w;
            p.setPen(m_series.at(i).color);
            p.drawText(QPointF(x, plot.bottom() - 5), name);
            p.fillRect(QRectF(x - 12, plot.bottom() - 11, 8, 3), m_series.at(i).color);
            x -= 22;
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(pal.color(QPalette::Mid));
    p.setBrush(Qt::NoBrush);
    p.drawRect(plot);
}

int MetricsChart::eventAt(const QPoint& pos) const
{
    const QRectF plot = plotRect();
    int best = -1;
    double bestDistance = 5;
    for (int i = 0; i < m_events.size(); ++i) {
        const double d = std::abs(xOf(m_events.at(i).t, plot) - pos.x());
        if (m_events.at(i).t >= m_from && d <= bestDistance) {
            best = i;
            bestDistance = d;
        }
    }
    return best;
}

bool MetricsChart::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int i = eventAt(help->pos());
        if (i >= 0) {
            const client::MetricEvent& ev = m_events.at(i);
            QToolTip::showText(
                help->globalPos(),
                QDateTime::fromMSecsSinceEpoch(ev.t).toString(QStringLiteral("HH:mm:ss")) +
                    QStringLiteral(" — ") + ev.message,
                this);
        } else {
            QToolTip::hideText();
            e->ignore();
        }
        return true;
    }
    return QWidget::event(e);
}

} // namespace lizard::ui::resources
