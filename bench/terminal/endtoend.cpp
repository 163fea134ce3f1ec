// lizard-bench-terminal: the Terminal tab's path end to end, against a real lizard-local.
//   - keystroke echo latency: a key sent from the view's input() until the painted view shows
//     the echoed glyph (bash's readline echoes it), median and p99 of N keys 40 ms apart; the same
//     through a pty on this host (bash on a posix_openpt terminal, read with a QSocketNotifier),
//     into the same widget, as the reference measured in the same run;
//   - throughput: `cat` of a file of text lines in the sandbox until its end is on screen, MB/s
//     with the longest event-loop stall meanwhile;
//   - memory: RSS growth of the app for each attached terminal with 10,000 lines of
//     scrollback.
//
//   lizard-bench-terminal --url http://127.0.0.1:7411 --key liz_... [--quick]

#include "client/lizardapi.h"
#include "console/benchawait.h"
#include "figure.h"
#include "files/schedstallmeter.h"
#include "models/terminals/terminalsession.h"
#include "stats.h"
#include "ui/terminal/terminalview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QSocketNotifier>
#include <cstdio>
#include <fcntl.h>
#include <malloc.h>
#include <memory>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

using namespace lizard;

namespace {

// The view, telling when it painted (what the user sees).
class PaintedView : public ui::TerminalView
{
public:
    using TerminalView::TerminalView;
    qint64 paints = 0;
    double longestPaintMs = 0;

protected:
    void paintEvent(QPaintEvent* event) override
    {
        QElapsedTimer t;
        t.start();
        TerminalView::paintEvent(event);
        longestPaintMs = std::max(longestPaintMs, double(t.nsecsElapsed()) / 1e6);
        ++paints;
    }
};

double rssMiB()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> parts = f.readAll().split(' ');
    return parts.size() > 1 ? parts[1].toDouble() * double(::sysconf(_SC_PAGESIZE)) / 1048576.0 : 0;
}

// Types `count` keys into `view` (through its input(), as a key press does) and times each
// from send to the first paint after the echoed glyph reached the view's grid. The line is
// cleared (Ctrl+U) every 50 keys.
std::vector<double> echoLatencies(PaintedView& view, int count, bool* ok)
{
    std::vector<double> ms;
    QString typed;
    for (int i = 0; i < count; ++i) {
        // At a fast typist's pace (40 ms apart, 300 keys a minute): each echo is painted as
        // it comes, not held for the next frame of a view that just painted.
        bench::runFor(40);
        typed += QChar(char('a' + i % 26));
        bool inGrid = false;
        qint64 paintsAtGrid = 0;
        QElapsedTimer t;
        t.start();
        emit view.input(QByteArray(1, typed.back().toLatin1()));
        const bool seen = bench::runUntil(
            [&] {
                if (!inGrid && view.screenText().contains(typed)) {
                    inGrid = true;
                    paintsAtGrid = view.paints;
                }
                return inGrid && view.paints > paintsAtGrid;
            },
            5000, 1);
        if (!seen) {
            *ok = false;
            return ms;
        }
        ms.push_back(double(t.nsecsElapsed()) / 1e6);
        if (typed.size() == 50) {
            emit view.input("\x15"); // Ctrl+U: an empty line again
            bench::runFor(50);
            typed.clear();
        }
    }
    return ms;
}

bench::Figure latencyFigure(const std::vector<double>& lizard, const std::vector<double>& host,
                            const QString& error)
{
    bench::Figure f;
    f.name = "terminal keystroke echo";
    f.statistic = "median of " + std::to_string(lizard.size());
    f.unit = "ms";
    f.target = 10;
    if (!error.isEmpty()) {
        f.error = error.toStdString();
        return f;
    }
    f.value = bench::median(lizard);
    f.note = bench::spreadNote(lizard);
    if (!host.empty())
        f.reference = bench::Reference{"the same widget on a host pty", bench::median(host)};
    return f;
}

// A bash on a new pty of this host, its master read into `view`.
struct HostPty
{
    int master = -1;
    pid_t pid = -1;
    std::unique_ptr<QSocketNotifier> notifier;

    bool start(ui::TerminalView& view)
    {
        master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0)
            return false;
        const char* slaveName = ::ptsname(master);
        winsize ws{};
        ws.ws_col = static_cast<unsigned short>(view.columns());
        ws.ws_row = static_cast<unsigned short>(view.rows());
        ::ioctl(master, TIOCSWINSZ, &ws);
        pid = ::fork();
        if (pid == 0) {
            ::setsid();
            const int slave = ::open(slaveName, O_RDWR);
            ::ioctl(slave, TIOCSCTTY, 0);
            ::dup2(slave, 0);
            ::dup2(slave, 1);
            ::dup2(slave, 2);
            ::setenv("TERM", "xterm-256color", 1);
            ::execl("/bin/bash", "bash", "--norc", "--noprofile", "-i", nullptr);
            ::_exit(127);
        }
        ::fcntl(master, F_SETFL, ::fcntl(master, F_GETFL) | O_NONBLOCK);
        notifier = std::make_unique<QSocketNotifier>(master, QSocketNotifier::Read);
        QObject::connect(notifier.get(), &QSocketNotifier::activated, [this, &view] {
            char buf[65536];
            const ssize_t n = ::read(master, buf, sizeof buf);
            if (n > 0)
                view.feed(QByteArray(buf, qsizetype(n)));
            else
                notifier->setEnabled(false);
        });
        QObject::connect(&view, &ui::TerminalView::input, [this](const QByteArray& b) {
            [[maybe_unused]] auto w = ::write(master, b.constData(), size_t(b.size()));
        });
        return true;
    }
    ~HostPty()
    {
        notifier.reset();
        if (pid > 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
        if (master >= 0)
            ::close(master);
    }
};

// Runs the API call `call(done)` and waits for it; false with *error on failure.
template <class T, class Call> bool await(Call call, T* out, QString* error)
{
    bool done = false, ok = false;
    call([&](client::Outcome<T> o) {
        ok = bool(o);
        if (o)
            *out = o.value();
        else
            *error = o.error().toDisplayString();
        done = true;
    });
    bench::runUntil([&] { return done; }, 120000);
    return ok;
}

struct Attached
{
    std::unique_ptr<PaintedView> view;
    std::unique_ptr<models::TerminalSession> session;
};

Attached attach(client::LizardApi& api, const QString& sandboxId, const QString& terminalId)
{
    Attached a;
    a.view = std::make_unique<PaintedView>();
    a.view->resize(800, 480);
    a.view->show();
    a.session = std::make_unique<models::TerminalSession>(&api, sandboxId, terminalId);
    auto* view = a.view.get();
    auto* session = a.session.get();
    QObject::connect(view, &ui::TerminalView::input, session, &models::TerminalSession::sendInput);
    QObject::connect(view, &ui::TerminalView::sizeChanged, session,
                     &models::TerminalSession::resize);
    QObject::connect(session, &models::TerminalSession::output, view, &ui::TerminalView::feed);
    QObject::connect(session, &models::TerminalSession::replayOutput, view,
                     &ui::TerminalView::feedReplay);
    QObject::connect(session, &models::TerminalSession::replayStarting, view,
                     &ui::TerminalView::reset);
    session->resize(view->columns(), view->rows());
    session->attach();
    bench::runUntil([&] { return session->state() == models::TerminalSession::State::Attached; },
                    15000);
    return a;
}

bool screenShows(ui::TerminalView& view, const QString& text, int timeoutMs)
{
    return bench::runUntil(
        [&] {
            view.flush();
            return view.screenText().contains(text);
        },
        timeoutMs);
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOptions({{"url", "lizard-local's URL", "url"},
                       {"key", "its API key", "key"},
                       {"quick", "fewer keys and megabytes (CI)"}});
    parser.process(app);
    const bool quick = parser.isSet("quick");
    const int keys = quick ? 60 : 300;
    const int megabytes = quick ? 20 : 100;
    client::LizardApi api({parser.value("url"), parser.value("key")});

    QString error;
    QList<client::Project> projects;
    client::SandboxInfo sandbox;
    if (!await<QList<client::Project>>([&](auto done) { api.listProjects(&api, done); }, &projects,
                                       &error) ||
        projects.isEmpty()) {
        std::fprintf(stderr, "lizard-bench-terminal: no project: %s\n", qPrintable(error));
        return 2;
    }
    client::CreateSandboxRequest req;
    req.projectId = projects.first().id;
    req.timeoutMs = 600000;
    if (!await<client::SandboxInfo>([&](auto done) { api.createSandbox(req, &api, done); },
                                    &sandbox, &error)) {
        std::fprintf(stderr, "lizard-bench-terminal: create sandbox: %s\n", qPrintable(error));
        return 2;
    }
    const QString id = sandbox.sandboxId;
    const auto newTerminal = [&](const QString& cmd, client::TerminalInfo* out) {
        client::CreateTerminalRequest t;
        t.shellCmd = cmd;
        t.cols = 100;
        t.rows = 30;
        return await<client::TerminalInfo>(
            [&](auto done) { api.createTerminal(id, t, &api, done); }, out, &error);
    };
    int status = 0;

    // Memory per attached terminal with a full scrollback.
    {
        const int n = quick ? 3 : 5;
        std::vector<Attached> open;
        ::malloc_trim(0);
        const double before = rssMiB();
        bool ok = true;
        for (int i = 0; i < n && ok; ++i) {
            client::TerminalInfo t;
            ok = newTerminal(
                QStringLiteral(
                    "seq -f 'scrollback line %g of a long session' 1 12000; exec bash --norc -i"),
                &t);
            if (ok) {
                open.push_back(attach(api, id, t.terminalId));
                ok = screenShows(*open.back().view, QStringLiteral("line 12000"), 60000);
            }
        }
        bench::Figure f;
        f.name = "memory per terminal (10,000 lines kept)";
        f.statistic = "RSS growth / " + std::to_string(n);
        f.unit = "MiB";
        f.hasTarget = false;
        if (!ok)
            f.error = "the terminals did not fill";
        else {
            ::malloc_trim(0);
            f.value = (rssMiB() - before) / n;
        }
        std::printf("%s\n", f.line().c_str());
        status |= f.error.empty() ? 0 : 1;
    }

    // Echo latency, here and on a host pty.
    {
        std::vector<double> lizard, host;
        client::TerminalInfo t;
        bool ok = newTerminal(QStringLiteral("exec bash --norc --noprofile -i"), &t);
        if (ok) {
            Attached a = attach(api, id, t.terminalId);
            ok = a.session->state() == models::TerminalSession::State::Attached;
            bench::runFor(500); // the prompt
            if (ok)
                lizard = echoLatencies(*a.view, keys, &ok);
            if (!ok)
                error = QStringLiteral("echo not seen in the terminal");
        }
        if (ok) {
            PaintedView view;
            view.resize(800, 480);
            view.show();
            HostPty pty;
            bool hostOk = pty.start(view);
            bench::runFor(500);
            if (hostOk)
                host = echoLatencies(view, keys, &hostOk);
        }
        const bench::Figure f = latencyFigure(lizard, host, ok ? QString() : error);
        std::printf("%s\n", f.line().c_str());
        if (!lizard.empty())
            std::printf("  (p99 %.2f ms; host pty p99 %.2f ms)\n", bench::quantile(lizard, 0.99),
                        bench::quantile(host, 0.99));
        status |= f.error.empty() ? 0 : 1;
    }

    // Throughput of cat, with the longest stall.
    {
        client::TerminalInfo t;
        bench::Figure f;
        f.name = "terminal cat " + std::to_string(megabytes) + " MB of text";
        f.statistic = "one run";
        f.unit = "MB/s";
        f.target = 50;
        f.higherIsBetter = true;
        if (!newTerminal(QStringLiteral("exec bash --norc --noprofile -i"), &t)) {
            f.error = error.toStdString();
        } else {
            Attached a = attach(api, id, t.terminalId);
            bench::runFor(300);
            // Lines like a build log's, made in the sandbox first. The clock starts once the
            // file is whole: the prompt's "$" shows at once, while seq may still be writing.
            emit a.view->input(
                QByteArray("seq -f 'line %g of a build log, src/module/file.cpp ok' 1 ") +
                QByteArray::number(megabytes * 1000000 / 50) +
                " > /tmp/text; stat -c %s /tmp/text; clear; echo text-$((6*7))-made\n");
            const bool made = screenShows(*a.view, QStringLiteral("text-42-made"), 120000);
            bench::runFor(100);
            // The longest stall split by the kernel's account of the UI thread: its own work
            // on a CPU, or waiting for a core that cat, bash and lizard-local keep busy.
            bench::SchedStallMeter meter;
            QElapsedTimer clock;
            meter.start();
            clock.start();
            emit a.view->input("cat /tmp/text; echo cat-done-$((6*7))\n");
            const bool done =
                made && bench::runUntil(
                            [&] {
                                return a.view->pendingBytes() == 0 &&
                                       a.view->screenText().contains(QLatin1String("cat-done-42"));
                            },
                            600000, 5);
            const double seconds = double(clock.nsecsElapsed()) / 1e9;
            meter.stop();
            if (!made) {
                f.error = "the text file was not made in the sandbox";
            } else if (!done) {
                f.error = "the end of the output never showed";
            } else {
                f.value = double(megabytes * 1000000) / 1e6 / seconds;
                const bench::SchedStallMeter::Wait& w = meter.longest();
                char note[320];
                if (meter.hasSchedstat())
                    std::snprintf(note, sizeof note,
                                  "longest UI stall %.1f ms (goal 16 ms): %.1f ms on a CPU, %.1f "
                                  "ms waiting for a core, %.1f ms asleep; longest CPU burst of "
                                  "the UI thread %.1f ms, longest paint %.1f ms",
                                  w.ms, w.cpuMs, w.runqueueMs, w.sleptMs(), meter.longestBurstMs(),
                                  a.view->longestPaintMs);
                else
                    std::snprintf(note, sizeof note,
                                  "longest UI stall %.1f ms (goal 16 ms), longest paint %.1f ms",
                                  w.ms, a.view->longestPaintMs);
                f.note = note;
            }
        }
        std::printf("%s\n", f.line().c_str());
        status |= f.error.empty() ? 0 : 1;
    }

    bool done = false;
    api.killSandbox(id, &api, [&](client::Outcome<client::Unit>) { done = true; });
    bench::runUntil([&] { return done; }, 30000);
    return status;
}
