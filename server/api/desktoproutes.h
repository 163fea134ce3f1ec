#pragma once
// POST|GET|DELETE /api/sandboxes/{id}/desktop (desktoproutes.cpp).

#include "api/routes.h"

namespace lizard::api {

void registerDesktopRoutes(Router& router, ApiContext& ctx);

} // namespace lizard::api
