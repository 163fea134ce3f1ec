#include "ui/ports/previewengine.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QOpenGLContext>
#include <QPluginLoader>

// QtGui's global share context (exported, not in a public header): what
// Qt::AA_ShareOpenGLContexts makes at start-up, made here on the first preview instead.
Q_GUI_EXPORT QOpenGLContext* qt_gl_global_share_context();
Q_GUI_EXPORT void qt_gl_set_global_share_context(QOpenGLContext* context);

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

// QtWebEngine composites through an OpenGL context shared with the application's. Asking for it
// with Qt::AA_ShareOpenGLContexts before QApplication exists makes it at start-up, and with it
// loads the GL driver (under Mesa's software renderer about 55 MB of LLVM resident) in every app,
// previews or not. Made before the plugin loads, it is there when QtWebEngine looks for it.
void ensureGlobalShareContext()
{
    if (qt_gl_global_share_context())
        return;
    // Set even when it cannot be created (the offscreen platform has no GL), as QtGui does
    // for the attribute: QtWebEngine then renders without the GPU, where without any share
    // context it crashes.
    auto* context = new QOpenGLContext(QCoreApplication::instance());
    context->create();
    qt_gl_set_global_share_context(context);
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
    ensureGlobalShareContext();
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
