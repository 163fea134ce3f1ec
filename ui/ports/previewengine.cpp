#include "ui/ports/previewengine.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QPluginLoader>

namespace lizard::ui::ports {

namespace {

struct State
{
    bool tried = false;
    PreviewEngine* engine = nullptr;
    QString error;
};

State& state()
{
    static State s;
    return s;
}

} // namespace

QStringList PreviewLoader::candidates()
{
    QStringList out;
    const QString env = qEnvironmentVariable("LIZARD_PREVIEW_PLUGIN");
    if (!env.isEmpty())
        out.append(env);
    out.append(QDir::cleanPath(QCoreApplication::applicationDirPath() +
                               QStringLiteral("/../lib/lizard-desktop/lizard_preview.so")));
    return out;
}

PreviewEngine* PreviewLoader::engine()
{
    State& s = state();
    if (s.tried)
        return s.engine;
    s.tried = true;
    QStringList problems;
    for (const QString& path : candidates()) {
        if (!QFileInfo::exists(path)) {
            problems.append(path + QStringLiteral(": not found"));
            continue;
        }
        // The loader stays alive (and the library loaded) for the rest of the process.
        auto* loader = new QPluginLoader(path, QCoreApplication::instance());
        QObject* root = loader->instance();
        if (auto* engine = qobject_cast<PreviewEngine*>(root)) {
            s.engine = engine;
            return engine;
        }
        problems.append(
            path + QStringLiteral(": ") +
            (root ? QStringLiteral("not a Lizard preview plugin") : loader->errorString()));
        loader->unload();
        delete loader;
    }
    s.error = QStringLiteral("The web preview (QtWebEngine) could not be loaded: ") +
              problems.join(QStringLiteral("; "));
    return nullptr;
}

QString PreviewLoader::errorString()
{
    return state().error;
}

bool PreviewLoader::isLoaded()
{
    return state().engine != nullptr;
}

} // namespace lizard::ui::ports
