#include "previewscenario.h"

#include "client/lizardapi.h"
#include "models/portlistmodel.h"
#include "processmemory.h"
#include "tests/support/apiwait.h"
#include "ui/mainwindow.h"
#include "ui/ports/portspanel.h"
#include "ui/ports/previewpage.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QPointer>
#include <QTabWidget>
#include <cstdio>
#include <functional>
#include <optional>

namespace lizard::bench {

namespace {

using test::waitUntil;

// One API call, awaited (a sandbox's first start may take its time).
template <class T, class Call> std::optional<client::Outcome<T>> call(Call start, int ms = 180000)
{
    return test::waitFor<T>(start, ms);
}

int fail(const QString& what)
{
    std::fprintf(stderr, "lizard-bench-preview: %s\n", qPrintable(what));
    return 2;
}

} // namespace

int runPreviewScenario(ui::MainWindow& window, const QString& url, const QString& key)
{
    client::LizardApi api({url, key});
    window.setBackend(&api, url, {});
    const auto projects = call<QList<client::Project>>(
        [&](QObject* ctx, auto done) { return api.listProjects(ctx, done); });
    if (!projects || !projects->ok() || projects->value().isEmpty())
        return fail(QStringLiteral("no project"));
    client::CreateSandboxRequest req;
    req.projectId = projects->value().first().id;
    req.timeoutMs = 600000;
    const auto created = call<client::SandboxInfo>(
        [&](QObject* ctx, auto done) { return api.createSandbox(req, ctx, done); });
    if (!created || !created->ok())
        return fail(QStringLiteral("create sandbox: ") +
                    (created ? created->error().toDisplayString() : QString()));
    const QString id = created->value().sandboxId;
    const auto cleanup = [&] {
        window.clearBackend(QString());
        call<client::Unit>([&](QObject* ctx, auto done) { return api.killSandbox(id, ctx, done); },
                           30000);
    };

    call<client::Unit>([&](QObject* ctx, auto done) {
        return api.writeFile(
            id, "/tmp/site/index.html",
            "<html><head><title>Bench page</title></head><body><h1>Bench</h1></body></html>", ctx,
            done);
    });
    client::ExecOptions opts;
    opts.timeoutMs = 600000;
    opts.workdir = "/tmp/site";
    std::unique_ptr<client::ExecStream> server(
        api.execStream(id, "exec python3 -m http.server 8000", opts));

    ui::ports::PortsPanel* panel = window.portsPanel();
    window.toolTabs()->setCurrentWidget(panel);
    panel->showSandbox(id);
    if (!waitUntil([&] { return panel->model()->rowOf(8000) >= 0; }, 30000)) {
        cleanup();
        return fail(QStringLiteral("port 8000 was not seen listening"));
    }
    QPointer<ui::ports::PreviewPage> page;
    QObject::connect(panel, &ui::ports::PortsPanel::previewOpened, panel,
                     [&page](ui::ports::PreviewPage* p) { page = p; });
    QElapsedTimer shown;
    shown.start();
    panel->previewPort(8000);
    if (!waitUntil([&] { return page && page->pageTitle() == QLatin1String("Bench page"); },
                   60000)) {
        cleanup();
        return fail(QStringLiteral("the preview did not show the page: ") +
                    (page ? page->pageTitle() : QStringLiteral("no preview opened")));
    }
    const qint64 pageMs = shown.elapsed();
    waitUntil([] { return false; }, 2000); // let the renderer settle
    const qint64 self = QCoreApplication::applicationPid();
    const qint64 appKb = rssKb(self);
    const qint64 treeKb = treeRssKb(self);
    std::printf("preview: memory after one preview: %.1f MB RSS in the app, %.1f MB with its %lld "
                "QtWebEngine "
                "processes (page shown %lld ms after Preview, including the expose call)\n",
                appKb / 1024.0, treeKb / 1024.0, static_cast<long long>(descendantsOf(self).size()),
                static_cast<long long>(pageMs));
    std::fflush(stdout);
    server.reset();
    cleanup();
    return 0;
}

} // namespace lizard::bench
