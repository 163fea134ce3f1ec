#pragma once
// One chart of the Resources tab, painted with QPainter: one or two series over a time window
// (now − range … now), the sandbox's limit as a dashed line (the scale always shows it), and
// its lifecycle events as marks on the time axis (their message on hover). A gap in the samples
// longer than a few intervals (a paused sandbox gives none) breaks the line instead of drawing
// a slope across it. Qt Charts is not a dependency of the app; this is all the charts need.

#include "client/metricstypes.h"

#include <QColor>
#include <QList>
#include <QWidget>

namespace lizard::ui::resources {

class MetricsChart : public QWidget
{
    Q_OBJECT
public:
    enum class Unit { Cores, Bytes, Count, BytesPerSecond };
    struct Series
    {
        QString name;
        QColor color;
        QList<client::MetricValue> points;
    };

    MetricsChart(const QString& title, Unit unit, QWidget* parent = nullptr);

    void setWindow(qint64 fromMs, qint64 toMs);
    // Consecutive points further apart than this are not joined (0: always joined).
    void setGapMs(qint64 ms) { m_gapMs = ms; }
    void setSeries(const QList<Series>& series);
    void setLimit(double value, const QString& label); // value ≤ 0: no limit line
    void setEvents(const QList<client::MetricEvent>& events);

    QString title() const { return m_title; }
    const QList<Series>& series() const { return m_series; }
    double limit() const { return m_limit; }
    int eventCount() const { return int(m_events.size()); }
    // The last value of series `i`, NaN when it has none.
    double latestValue(int i = 0) const;
    // The title line's right side: "0.98 cores", "rx 1.2 MB/s · tx 3 KB/s".
    QString latestText() const;
    QString formatValue(double v) const;
    // The top of the value axis (a round number at or above the largest value and the limit).
    double scaleMax() const;

    QSize sizeHint() const override { return {360, 170}; }
    QSize minimumSizeHint() const override { return {220, 120}; }

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override; // tooltips of the event marks

private:
    QRectF plotRect() const;
    double xOf(qint64 t, const QRectF& plot) const;
    int eventAt(const QPoint& pos) const; // index in m_events, -1: none

    QString m_title;
    Unit m_unit;
    qint64 m_from = 0, m_to = 1;
    qint64 m_gapMs = 0;
    QList<Series> m_series;
    double m_limit = 0;
    QString m_limitLabel;
    QList<client::MetricEvent> m_events;
};

// The colour of a lifecycle event's mark (paused grey, resumed green, OOM red…).
QColor metricEventColor(const QString& kind);

} // namespace lizard::ui::resources
