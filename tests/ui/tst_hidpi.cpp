// HiDPI: the app on a screen at scale 2 (QT_SCALE_FACTOR, set before the application exists)
// and charts painted at 1.5 and 2 device pixels per pixel. A chart must be drawn with the
// device's pixels, not drawn at 1x and stretched (blurry lines and text), and a chart image of
// a notebook is drawn with every device pixel it has.
#include "support/suitemain.h"
#include "ui/notebook/imageoutputview.h"
#include "ui/notebook/richoutputview.h"
#include "ui/resources/metricschart.h"

#include <QApplication>
#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QVBoxLayout>
#include <QtTest>

using lizard::ui::resources::MetricsChart;

namespace {

// The widget painted into a pixmap of `scale` device pixels per pixel.
QImage hidpiRender(QWidget* widget, qreal scale)
{
    QPixmap picture(widget->size() * scale);
    picture.setDevicePixelRatio(scale);
    picture.fill(Qt::white);
    widget->render(&picture);
    return picture.toImage().convertToFormat(QImage::Format_RGB32);
}

// Pixels of `a` and `b` (same size) that differ.
int hidpiDifferingPixels(const QImage& a, const QImage& b)
{
    int differing = 0;
    for (int y = 0; y < a.height(); ++y) {
        const auto* ra = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* rb = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x)
            differing += ra[x] != rb[x];
    }
    return differing;
}

QString hidpiPng(const QSize& size)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::darkCyan);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return QString::fromLatin1(bytes.toBase64());
}

} // namespace

class TestHiDpi : public QObject
{
    Q_OBJECT
private slots:
    void theScreenIsAtTwo();
    void chartsUseTheDevicePixels_data();
    void chartsUseTheDevicePixels();
    void notebookImagesUseEveryDevicePixel();
};

void TestHiDpi::theScreenIsAtTwo()
{
    QWidget w;
    w.resize(200, 100);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCOMPARE(w.devicePixelRatioF(), 2.0);
    QCOMPARE(w.grab().size(), QSize(400, 200));
}

void TestHiDpi::chartsUseTheDevicePixels_data()
{
    QTest::addColumn<qreal>("scale");
    QTest::newRow("1.5") << 1.5;
    QTest::newRow("2") << 2.0;
}

void TestHiDpi::chartsUseTheDevicePixels()
{
    QFETCH(qreal, scale);
    MetricsChart chart(QStringLiteral("CPU"), MetricsChart::Unit::Cores);
    const qint64 now = 1'800'000'000'000;
    QList<lizard::client::MetricValue> points;
    for (int i = 0; i <= 60; ++i)
        points.append({now - 120'000 + i * 2000, 0.5 + 0.4 * ((i * 7) % 11) / 10.0});
    chart.setWindow(now - 120'000, now);
    chart.setSeries({{QStringLiteral("cpu"), QColor(0x1f, 0x77, 0xb4), points}});
    chart.setLimit(2, QStringLiteral("limit 2 vCPU"));
    chart.setEvents({{now - 100'000, QStringLiteral("create"), QStringLiteral("created")}});
    chart.resize(400, 200);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));

    const QImage once = hidpiRender(&chart, 1.0);
    const QImage hidpi = hidpiRender(&chart, scale);
    QCOMPARE(hidpi.size(), (QSizeF(chart.size()) * scale).toSize());
    // The same chart at 1x stretched to the device size: what a chart cached at its logical size
    // would show. Drawn for the device, lines and letters are finer, so many pixels differ.
    const QImage stretched =
        once.scaled(hidpi.size(), Qt::IgnoreAspectRatio, Qt::FastTransformation);
    const int differing = hidpiDifferingPixels(hidpi, stretched);
    QVERIFY2(differing > hidpi.width() * hidpi.height() / 100,
             qPrintable(QStringLiteral("%1 of %2 pixels differ")
                            .arg(differing)
                            .arg(hidpi.width() * hidpi.height())));
    // The series is there at device resolution: its colour is found in the plot.
    int seriesPixels = 0;
    for (int y = 0; y < hidpi.height(); ++y)
        for (int x = 0; x < hidpi.width(); ++x)
            seriesPixels +=
                QColor(hidpi.pixel(x, y)).blue() > 150 && QColor(hidpi.pixel(x, y)).red() < 90;
    QVERIFY2(seriesPixels > 100, qPrintable(QString::number(seriesPixels)));
}

void TestHiDpi::notebookImagesUseEveryDevicePixel()
{
    // A 640x480 figure in a 320-pixel-wide cell: shown at 320x240, drawn with 640 device pixels,
    // the image's own, where a 1x screen has 320.
    lizard::notebook::RichOutput r;
    r.kind = lizard::notebook::RichOutput::Kind::ExecuteResult;
    r.data["image/png"] = hidpiPng({640, 480}).toStdString();
    QWidget host;
    auto* layout = new QVBoxLayout(&host);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* view = new lizard::ui::notebook::RichOutputView(r);
    layout->addWidget(view);
    layout->addStretch();
    host.resize(320, 1000);
    host.show();
    QVERIFY(QTest::qWaitForWindowExposed(&host));
    QVERIFY(view->imageView());
    QTRY_COMPARE(view->imageView()->shownSize(), QSize(320, 240));
    const QPixmap drawn = view->imageView()->pixmap();
    QCOMPARE(drawn.deviceIndependentSize().toSize(), QSize(320, 240));
    QCOMPARE(drawn.width(), 640);
    QCOMPARE(drawn.devicePixelRatio(), 2.0);
}

// The scale is the screen's: set before QApplication reads it.
LIZARD_SUITE_MAIN_WITH(TestHiDpi, qputenv("QT_SCALE_FACTOR", "2"); QApplication app(argc, argv);)
#include "tst_hidpi.moc"
