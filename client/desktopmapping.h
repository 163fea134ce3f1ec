#pragma once
// JSON of the desktop calls: {running, width, height, url, viewOnlyUrl}. width and height are
// null until the desktop first started; both URLs are required (a viewer cannot work without
// them). Unknown fields are ignored.

#include "client/outcome.h"
#include "client/types.h"

#include <QByteArray>

namespace lizard::client {

Outcome<DesktopInfo> parseDesktopInfo(const QByteArray& body, const QString& what = {});

} // namespace lizard::client
