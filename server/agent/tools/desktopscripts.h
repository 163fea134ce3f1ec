#pragma once
// The commands of the desktop template, written into its own /usr/local/bin when the template
// is built (templatebuilder.cpp). Shell scripts over the host's packages (Xvfb, openbox,
// x11vnc, websockify, noVNC, scrot), so that the desktop's processes are the sandbox's own and
// take part in pause, resume, snapshot and fork like any other.

#include <vector>

namespace lizard::agent {

struct DesktopTool
{
    const char* name; // file name in /usr/local/bin
    const char* text; // the script
};

const std::vector<DesktopTool>& desktopTools();

} // namespace lizard::agent
