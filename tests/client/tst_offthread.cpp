// runOffThread: the work runs on a pool thread, the result comes back on the calling thread,
// and a context destroyed meanwhile means the result is dropped (no callback, no crash).

#include "client/offthread.h"

#include <QSemaphore>
#include <QTest>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <memory>

using lizard::client::runOffThread;

class TestOffThread : public QObject
{
    Q_OBJECT
private slots:
    void resultComesBackOnTheCallingThread();
    void destroyedContextDropsTheResult();
    void manyCallsKeepTheirResults();
};

void TestOffThread::resultComesBackOnTheCallingThread()
{
    QThread* workThread = nullptr;
    QThread* thenThread = nullptr;
    int got = 0;
    runOffThread<int>(
        this,
        [&workThread] {
            workThread = QThread::currentThread();
            return 42;
        },
        [&](int value) {
            thenThread = QThread::currentThread();
            got = value;
        });
    QCOMPARE(got, 0); // never inside the call
    QTRY_COMPARE(got, 42);
    QCOMPARE(thenThread, QThread::currentThread());
    QVERIFY(workThread != nullptr);
    QVERIFY(workThread != QThread::currentThread());
}

void TestOffThread::destroyedContextDropsTheResult()
{
    auto ctx = std::make_unique<QObject>();
    QSemaphore started;
    QSemaphore release;
    std::atomic<bool> workDone{false};
    bool called = false;
    runOffThread<QString>(
        ctx.get(),
        [&] {
            started.release();
            release.acquire();
            workDone = true;
            return QStringLiteral("late");
        },
        [&](const QString&) { called = true; });
    QVERIFY(started.tryAcquire(1, 5000));
    ctx.reset(); // e.g. the model that asked for a listing is gone
    release.release();
    QTRY_VERIFY(workDone.load());
    QThreadPool::globalInstance()->waitForDone();
    QTest::qWait(50); // the result's event is processed and dropped
    QVERIFY(!called);
}

void TestOffThread::manyCallsKeepTheirResults()
{
    constexpr int kCalls = 200;
    std::vector<int> got;
    for (int i = 0; i < kCalls; ++i)
        runOffThread<int>(
            this, [i] { return i * i; }, [&got](int v) { got.push_back(v); });
    QTRY_COMPARE(int(got.size()), kCalls);
    std::sort(got.begin(), got.end());
    for (int i = 0; i < kCalls; ++i)
        QCOMPARE(got[size_t(i)], i * i);
}

QTEST_GUILESS_MAIN(TestOffThread)
#include "tst_offthread.moc"
