#pragma once
// The two viewers the desktop bench compares, behind one face: the app's web viewer (the Screen
// tab itself: the preview plugin's QtWebEngine view on ScreenAddress::viewerUrl) and the
// native prototype (VncView on the view-only URL). Each is a top-level widget of a fixed size,
// shown offscreen.

#include "client/lizardapi.h"

#include <QSize>
#include <QString>
#include <functional>
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
    // A viewer that starts the desktop itself (the tab's Start), as a user would: `answered`
    // gets the state once the server answered, or the failure. Others are started by the bench.
    virtual bool startsDesktop() const { return false; }
    virtual void startDesktop(std::function<void(client::Outcome<client::DesktopInfo>)> answered)
    {
        (void)answered;
    }
    virtual QWidget* widget() = 0;
    virtual QString error() const = 0; // why nothing shows, when known
};

constexpr QSize kViewerSize(960, 600);

using ViewerFactory = std::function<std::unique_ptr<Viewer>()>;
ViewerFactory webViewer(client::LizardApi* api, const QString& sandboxId);
ViewerFactory nativeViewer();

} // namespace lizard::bench
