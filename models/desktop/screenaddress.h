#pragma once
// The page the Screen tab loads for a desktop: the server's viewer page (lizard-local serves
// noVNC's) for the chosen stream, with the options an embedded viewer wants: the screen scaled
// to the view, reconnection after a pause or a dropped connection, and, while the user does not
// have control, the page's own view-only switch besides the view-only stream.

#include "client/types.h"

#include <QByteArray>
#include <QUrl>

namespace lizard::models {

class ScreenAddress
{
public:
    // control: the full-control stream (info.url); otherwise the view-only one.
    static QUrl viewerUrl(const client::DesktopInfo& info, bool control);
    // scheme://host:port/ of a viewer URL, and the access token it carries (lizard_token).
    static QUrl origin(const QUrl& url);
    static QByteArray token(const QUrl& url);
};

} // namespace lizard::models
