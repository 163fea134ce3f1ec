#pragma once
// The official SDK's schedules (scheduleroutes.cpp): POST|GET /api/sandboxes/{id}/schedules,
// GET /api/sandbox-schedules[?sandboxId=], GET|PATCH|DELETE /api/sandbox-schedules/{sid},
// POST /api/sandbox-schedules/{sid}/run, GET /api/sandbox-schedules/{sid}/runs[?limit=].

#include "api/routes.h"

namespace lizard::sandboxes {
class Scheduler;
}

namespace lizard::api {

void registerScheduleRoutes(Router& router, ApiContext& ctx, sandboxes::Scheduler& scheduler);

} // namespace lizard::api
