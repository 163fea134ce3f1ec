// Following the activity log over SSE against a real lizard-local: LizardApi::followActivity
// delivers every entry once, in seq order, in batches (a burst of 200 execs included), from any
// `since`; ActivityListModel follows it and, across a crash and a clean restart of the server,
// ends up with exactly the server's log: no gap, no duplicate. A server that stops answering
// (SIGSTOP) is noticed after three missed keep-alives (CONNECTION_LOST) and followed again.

#include "client/activitystream.h"
#include "models/activity/activitylistmodel.h"
#include "support/apiwait.h"
#include "support/sandboxfixture.h"

#include <QElapsedTimer>
#include <QTest>
#include <csignal>

using namespace lizard::client;
using lizard::models::ActivityListModel;
using lizard::test::ApiWaiter;
using lizard::test::waitUntil;

namespace {

qint64 seqOf(const ActivityEntry& e)
{
    return e.seq;
}

QString argOf(const ActivityEntry& e, qsizetype i)
{
    return e.argv.value(i);
}

// What one stream delivered.
struct Followed
{
    std::vector<ActivityEntry> entries;
    int batches = 0;
    bool ended = false;
    ApiError error;
    bool failed = false;

    void attach(ActivityStream* s)
    {
        QObject::connect(s, &ActivityStream::entries, s, [this](const ActivityPage& b) {
            ++batches;
            QCOMPARE(b.lastSeq, seqOf(b.entries.back()));
            entries.insert(entries.end(), b.entries.begin(), b.entries.end());
        });
        QObject::connect(s, &ActivityStream::ended, s, [this] { ended = true; });
        QObject::connect(s, &ActivityStream::failed, s, [this](const ApiError& e) {
            error = e;
            failed = true;
        });
    }
    bool has(const QString& marker) const
    {
        return std::any_of(entries.begin(), entries.end(),
                           [&](const ActivityEntry& e) { return argOf(e, 1) == marker; });
    }
};

// The server's keep-alive interval here: a silent stream is given up after three of them.
constexpr int kKeepaliveMs = 1000;

QString describeSeqs(const QList<qint64>& a, const QList<qint64>& b)
{
    QStringList out;
    for (const auto* l : {&a, &b}) {
        QStringList s;
        for (qint64 v : *l)
            s << QString::number(v);
        out << s.join(',');
    }
    return out.join(QStringLiteral("\n vs \n"));
}

} // namespace

class TestActivityStream : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase() { m_fx.stop(); }
    void cleanup() { m_fx.reportIfFailed(); }
    void burstArrivesInOrder();
    void followsFromSince();
    void unknownSandboxIsNotFound();
    void stalledServerIsConnectionLost();
    void modelContinuesAcrossRestarts();

private:
    LizardApi& api() { return m_fx.api(); }
    QString sb() const { return m_fx.sandboxId(); }
    bool execEcho(const QString& marker)
    {
        ApiWaiter<ExecResult> r;
        api().execArgv(sb(), {QStringLiteral("echo"), marker}, {}, this, r.done());
        return r.wait() && r.ok() && r.value().exitCode == 0;
    }
    // The whole log as the JSON route answers it.
    QList<qint64> serverSeqs()
    {
        ApiWaiter<ActivityPage> page;
        api().activity(sb(), 0, 10000, this, page.done());
        QList<qint64> seqs;
        if (page.wait() && page.ok())
            for (const auto& e : page.value().entries)
                seqs << seqOf(e);
        return seqs;
    }

    lizard::test::SandboxFixture m_fx;
};

void TestActivityStream::initTestCase()
{
    qputenv("LIZARD_HTTP_LIMITS", QByteArray("keepaliveMs=") + QByteArray::number(kKeepaliveMs));
    const QString failure = m_fx.start();
    if (!failure.isEmpty())
        LIZ_NO_SANDBOX(m_fx.hostLacksSandboxes(), failure);
}

void TestActivityStream::burstArrivesInOrder()
{
    Followed seen;
    std::unique_ptr<ActivityStream> stream(api().followActivity(sb(), 0));
    seen.attach(stream.get());
    // The agent: 200 execs one after the other, as fast as the server answers them, while the
    // stream is read on the same event loop.
    constexpr int kBurst = 200;
    int started = 0;
    int done = 0;
    bool allOk = true;
    std::function<void()> next = [&] {
        const QString marker = QStringLiteral("burst-%1").arg(started++);
        api().execArgv(sb(), {QStringLiteral("echo"), marker}, {}, this,
                       [&](Outcome<ExecResult> r) {
                           allOk = allOk && r && r.value().exitCode == 0;
                           if (++done < kBurst)
                               next();
                       });
    };
    next();
    QVERIFY(waitUntil([&] { return done == kBurst; }, 120000));
    QVERIFY(allOk);
    const QString last = QStringLiteral("burst-%1").arg(kBurst - 1);
    QVERIFY2(waitUntil([&] { return seen.has(last) || seen.failed; }, 10000),
             qPrintable(QStringLiteral("%1 entries").arg(seen.entries.size())));
    QVERIFY2(!seen.failed, qPrintable(seen.error.toDisplayString()));
    // Every entry once, in seq order, and the burst's execs in the order the agent made them.
    QList<qint64> seqs;
    int burst = 0;
    for (const auto& e : seen.entries) {
        seqs << seqOf(e);
        if (argOf(e, 1).startsWith(QLatin1String("burst-")))
            QCOMPARE(argOf(e, 1), QStringLiteral("burst-%1").arg(burst++));
    }
    QCOMPARE(burst, kBurst);
    QCOMPARE(seqs, serverSeqs());
    QVERIFY2(seen.batches <= int(seen.entries.size()), "batches, not more signals than entries");
    QVERIFY(!seen.ended);
}

void TestActivityStream::followsFromSince()
{
    const QList<qint64> all = serverSeqs();
    QVERIFY(all.size() > 5);
    const qint64 since = all.at(all.size() - 6);
    Followed seen;
    std::unique_ptr<ActivityStream> stream(api().followActivity(sb(), since));
    seen.attach(stream.get());
    QVERIFY(waitUntil([&] { return seen.entries.size() >= 5 || seen.failed; }, 10000));
    QVERIFY(execEcho(QStringLiteral("after-since")));
    QVERIFY(
        waitUntil([&] { return seen.has(QStringLiteral("after-since")) || seen.failed; }, 10000));
    QVERIFY2(!seen.failed, qPrintable(seen.error.toDisplayString()));
    QCOMPARE(seen.entries.size(), size_t(6));
    QCOMPARE(seqOf(seen.entries.front()), all.at(all.size() - 5));
    QCOMPARE(seqOf(seen.entries.back()), serverSeqs().last());
}

void TestActivityStream::unknownSandboxIsNotFound()
{
    Followed seen;
    std::unique_ptr<ActivityStream> stream(api().followActivity(QStringLiteral("no-such"), 0));
    seen.attach(stream.get());
    QVERIFY(waitUntil([&] { return seen.failed || seen.ended; }, 10000));
    QVERIFY(seen.failed);
    QCOMPARE(seen.error.httpStatus, 404);
    QVERIFY(seen.entries.empty());
}

void TestActivityStream::stalledServerIsConnectionLost()
{
    Followed seen;
    std::unique_ptr<ActivityStream> stream(api().followActivity(sb(), 0));
    seen.attach(stream.get());
    QVERIFY(waitUntil([&] { return !seen.entries.empty() || seen.failed; }, 10000));
    const qint64 pid = m_fx.server().serverPid();
    QVERIFY(pid > 1);
    QVERIFY(::kill(pid_t(pid), SIGSTOP) == 0);
    QElapsedTimer stalled;
    stalled.start();
    const bool ended =
        waitUntil([&] { return seen.failed || seen.ended; }, 4 * kKeepaliveMs + 2000);
    const qint64 after = stalled.elapsed();
    ::kill(pid_t(pid), SIGCONT);
    if (m_fx.server().pid() > 1 && m_fx.server().pid() != pid)
        ::kill(pid_t(m_fx.server().pid()), SIGCONT); // runuser stops with its child
    QVERIFY2(ended, qPrintable(QStringLiteral("silence %1 ms after the stall").arg(after)));
    QVERIFY(seen.failed);
    QCOMPARE(seen.error.code, QStringLiteral("CONNECTION_LOST"));
    QCOMPARE(seen.error.kind, ApiError::Kind::Network);
}

void TestActivityStream::modelContinuesAcrossRestarts()
{
    ActivityListModel model;
    model.setApi(&api());
    model.setSandbox(sb());
    model.setActive(true);
    const auto modelSeqs = [&] {
        QList<qint64> seqs;
        for (int i = 0; i < model.rowCount(); ++i)
            seqs << model.index(i).data(ActivityListModel::SeqRole).toLongLong();
        return seqs;
    };
    QVERIFY(waitUntil([&] { return modelSeqs() == serverSeqs(); }, 10000));
    // A crash (the connection breaks), a clean restart (the server ends the stream itself) and
    // a stall (the connection stays, nothing comes): each time the model follows again from its
    // last seq.
    for (const QString& tag :
         {QStringLiteral("crash"), QStringLiteral("restart"), QStringLiteral("stall")}) {
        QVERIFY(execEcho(tag + "-before"));
        if (tag == QLatin1String("restart")) {
            QVERIFY2(m_fx.server().restart(), qPrintable(m_fx.server().errorString()));
        } else if (tag == QLatin1String("crash")) {
            QVERIFY(m_fx.server().crash());
            QVERIFY2(m_fx.server().start(), qPrintable(m_fx.server().errorString()));
        } else {
            const qint64 pid = m_fx.server().serverPid();
            QVERIFY(pid > 1);
            QVERIFY(waitUntil([&] { return model.isFollowing(); }, 10000));
            QVERIFY(::kill(pid_t(pid), SIGSTOP) == 0);
            QElapsedTimer stalled;
            stalled.start();
            // Three keep-alive intervals of silence: the model gives the stream up.
            const bool noticed =
                waitUntil([&] { return !model.isFollowing(); }, 4 * kKeepaliveMs + 2000);
            const qint64 after = stalled.elapsed();
            ::kill(pid_t(pid), SIGCONT);
            if (m_fx.server().pid() > 1 && m_fx.server().pid() != pid)
                ::kill(pid_t(m_fx.server().pid()), SIGCONT); // runuser stops with its child
            QVERIFY2(
                noticed,
                qPrintable(QStringLiteral("still following %1 ms after the stall").arg(after)));
            QVERIFY(after >= 2 * kKeepaliveMs);
        }
        for (int i = 0; i < 20; ++i)
            QVERIFY(execEcho(QStringLiteral("%1-after-%2").arg(tag).arg(i)));
        const QString last = QStringLiteral("%1-after-19").arg(tag);
        QVERIFY2(waitUntil(
                     [&] {
                         return model.rowCount() > 0 &&
                                argOf(model.entry(model.rowCount() - 1), 1) == last;
                     },
                     15000),
                 qPrintable(tag + ": " + describeSeqs(modelSeqs(), serverSeqs())));
        QVERIFY2(modelSeqs() == serverSeqs(),
                 qPrintable(tag + ": " + describeSeqs(modelSeqs(), serverSeqs())));
        QVERIFY(model.unavailableText().isEmpty());
    }
}

QTEST_GUILESS_MAIN(TestActivityStream)
#include "tst_activitystream.moc"
