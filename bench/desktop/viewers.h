#pragma once
// The two viewers the desktop bench compares, behind one face: the app's web viewer (the
// preview plugin's QtWebEngine view on ScreenAddress::viewerUrl, as the Screen tab shows it)
// and the native prototype (VncView on the view-only URL). Each is a top-level widget of a
// fixed size, shown offscreen.

#include "client/types.h"

#include <QSize>
#include <QString>
#include <memory>

class QWidget;

namespace lizard::bench {

class Viewer
{
public:
    virtual ~Viewer() = default;
    virtual QString name() const = 0; // "web", "native"
    // Before the desktop starts: what can be set up without its stream (the tab is shown).
    virtual bool prepare(const client::DesktopInfo& stopped) = 0;
    // The desktop answered its start: show its screen.
    virtual void show(const client::DesktopInfo& running) = 0;
    virtual QWidget* widget() = 0;
    virtual QString error() const = 0; // why nothing shows, when known
};

constexpr QSize kViewerSize(960, 600);

std::unique_ptr<Viewer> makeWebViewer();
std::unique_ptr<Viewer> makeNativeViewer();

} // namespace lizard::bench
