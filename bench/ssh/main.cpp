// lizard-bench-ssh: what the SSH tunnel costs. An SSH host on this machine (a real sshd in a
// network namespace, tests/support/sshhost.h; root only) runs the lizard-local the app starts
// there over SSH (app/ssh/sshtunnel.h); the API round trip (GET /api/sandboxes/{id}) and a warm
// runCode `1+1` are measured through the tunnel, beside the same against the loopback lizard-local
// of `make bench` directly, in the same run.
//
//   lizard-bench-ssh --url http://127.0.0.1:PORT --key liz_... [--runs 50]
// Exit status: 0 when measured (PASS or MISS) or when this host cannot have the SSH host (said
// on one line), 2 when it could not be measured, 1 on bad arguments.

#include "app/ssh/sshtunnel.h"
#include "bench/interpretersandbox.h"
#include "client/coderun/codeinterpreter.h"
#include "client/lizardapi.h"
#include "figure.h"
#include "stats.h"
#include "tests/support/apiwait.h"
#include "tests/support/sshhost.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>
#include <memory>
#include <unistd.h>

using namespace lizard;
using test::waitFor;
using test::waitUntil;

namespace {

// Milliseconds of `runs` GET /api/sandboxes/{id}, after three to open the connection.
std::vector<double> roundTrips(client::LizardApi& api, const QString& id, int runs, QString* error)
{
    std::vector<double> samples;
    for (int i = 0; i < runs + 3; ++i) {
        const auto start = bench::Clock::now();
        const auto got = waitFor<client::SandboxInfo>(
            [&](QObject* ctx, auto done) { api.getSandbox(id, ctx, std::move(done)); }, 30000);
        const double ms = bench::msSince(start);
        if (!got || !got->ok()) {
            *error = got ? got->error().toDisplayString() : QStringLiteral("no answer");
            return {};
        }
        if (i >= 3)
            samples.push_back(ms);
    }
    return samples;
}

// Milliseconds of `runs` warm runCode("1+1"), after three that start and settle the kernel.
std::vector<double> onePlusOne(client::LizardApi& api, const QString& id, int runs, QString* error)
{
    client::CodeInterpreter interp(&api, id);
    interp.warmUp();
    std::vector<double> samples;
    for (int i = 0; i < runs + 3; ++i) {
        const auto start = bench::Clock::now();
        client::CodeRun* run = interp.runCode(QStringLiteral("1+1"));
        waitUntil([run] { return run->isFinished(); }, 120000);
        const double ms = bench::msSince(start);
        if (!run->isFinished() || run->hasFailed() || run->execution().text() != "2") {
            *error = run->hasFailed() ? run->failure()->toDisplayString()
                                      : QStringLiteral("1+1 did not give 2 in time");
            return {};
        }
        run->deleteLater();
        if (i >= 3)
            samples.push_back(ms);
    }
    return samples;
}

void kill(client::LizardApi& api, const QString& id)
{
    if (!id.isEmpty())
        waitFor<client::Unit>(
            [&](QObject* ctx, auto done) { api.killSandbox(id, ctx, std::move(done)); }, 30000);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOptions({{"url", "the loopback lizard-local's URL (the direct reference)", "url"},
                       {"key", "its API key", "key"},
                       {"runs", "timed calls of each kind (default 50)", "n", "50"}});
    parser.process(app);
    if (!parser.isSet("url") || !parser.isSet("key")) {
        std::fprintf(stderr, "usage: lizard-bench-ssh --url URL --key KEY [--runs N]\n");
        return 1;
    }
    const int runs = std::max(1, parser.value("runs").toInt());
    test::SshHost host;
    QString why;
    if (::geteuid() != 0) {
        std::printf("SSH tunnel figures: none (the SSH host is a network namespace, which needs "
                    "root)\n");
        return 0;
    }
    if (!host.start(&why)) {
        std::printf("%-50sERROR  %s\n", "SSH tunnel figures", qPrintable(why));
        return 2;
    }
    qputenv("LIZARD_TEST_SSH_CONFIG", host.clientConfig().toUtf8());
    app::ssh::SshTarget target;
    target.destination = host.destination();
    target.port = host.port();
    target.configFile = host.clientConfig();
    app::ssh::SshTunnel tunnel(target);
    std::optional<app::ssh::RemoteServer> server;
    QObject::connect(&tunnel, &app::ssh::SshTunnel::hostKeyUnknown, &tunnel,
                     [&tunnel] { tunnel.answerHostKey(true); });
    QObject::connect(&tunnel, &app::ssh::SshTunnel::ready, &tunnel,
                     [&server](const app::ssh::RemoteServer& s) { server = s; });
    QObject::connect(&tunnel, &app::ssh::SshTunnel::failed, &tunnel,
                     [&why](const QString& message) { why = message; });
    tunnel.start();
    waitUntil([&] { return server.has_value() || !why.isEmpty(); }, 180000);
    if (!server) {
        std::printf("%-50sERROR  %s\n", "SSH tunnel figures",
                    qPrintable(why.isEmpty() ? QStringLiteral("no tunnel in 3 min") : why));
        return 2;
    }
    client::LizardApi overSsh({server->url, server->apiKey});
    overSsh.setProxyRoute(&tunnel);
    client::LizardApi direct({parser.value("url"), parser.value("key")});
    const QString sshId = bench::createInterpreterSandbox(overSsh, &why);
    const QString directId =
        sshId.isEmpty() ? QString() : bench::createInterpreterSandbox(direct, &why);
    int status = 0;
    const std::string stat = "median of " + std::to_string(runs);
    if (sshId.isEmpty() || directId.isEmpty()) {
        std::printf("%-50sERROR  %s\n", "SSH tunnel figures", qPrintable(why));
        status = 2;
    } else {
        // Alternating would mix the two kernels' warm-up; each pair runs back to back instead.
        QString e1, e2;
        const auto apiSsh = roundTrips(overSsh, sshId, runs, &e1);
        const auto apiDirect = roundTrips(direct, directId, runs, &e2);
        bench::Figure api{
            .name = "API GET sandbox, over SSH", .statistic = stat, .unit = "ms", .target = 5};
        if (apiSsh.empty() || apiDirect.empty()) {
            api.error = (e1.isEmpty() ? e2 : e1).toStdString();
        } else {
            api.value = bench::median(apiSsh);
            api.reference = bench::Reference{"loopback direct (median)", bench::median(apiDirect)};
            api.note = bench::spreadNote(apiSsh);
        }
        std::printf("%s\n", api.line().c_str());
        std::fflush(stdout);
        const auto runSsh = onePlusOne(overSsh, sshId, runs, &e1);
        const auto runDirect = onePlusOne(direct, directId, runs, &e2);
        bench::Figure code{
            .name = "runCode warm 1+1, over SSH", .statistic = stat, .unit = "ms", .target = 50};
        if (runSsh.empty() || runDirect.empty()) {
            code.error = (e1.isEmpty() ? e2 : e1).toStdString();
        } else {
            code.value = bench::median(runSsh);
            code.reference = bench::Reference{"loopback direct (median)", bench::median(runDirect)};
            code.note = bench::spreadNote(runSsh);
        }
        std::printf("%s\n", code.line().c_str());
        std::fflush(stdout);
        status = api.error.empty() && code.error.empty() ? 0 : 2;
    }
    kill(overSsh, sshId);
    kill(direct, directId);
    return status;
}
