// LizardApi: the schedules of a sandbox and their runs (the official SDK's calls).
#include "client/apicall.h"
#include "client/jsonmapping.h"
#include "client/lizardapi.h"
#include "client/requestbuilder.h"

namespace lizard::client {

using namespace apicall;

namespace {
QByteArray schedulePath(const QString& scheduleId, const QByteArray& rest = {})
{
    return "/api/sandbox-schedules/" + seg(scheduleId) + rest;
}
} // namespace

PendingCall* LizardApi::listSchedules(const QString& sandboxId, QObject* ctx,
                                      Done<QList<SandboxSchedule>> done)
{
    return startCall<QList<SandboxSchedule>>(
        m_multi.get(), RequestBuilder(m_endpoint).json("GET", sandboxPath(sandboxId, "/schedules")),
        tr("List schedules"), ctx, std::move(done), parseSchedules);
}

PendingCall* LizardApi::createSchedule(const QString& sandboxId, const ScheduleSpec& spec,
                                       QObject* ctx, Done<SandboxSchedule> done)
{
    const auto req = RequestBuilder(m_endpoint)
                         .json("POST", sandboxPath(sandboxId, "/schedules"), scheduleBody(spec));
    return startCall<SandboxSchedule>(m_multi.get(), req, tr("Add schedule"), ctx, std::move(done),
                                      parseSchedule);
}

PendingCall* LizardApi::updateSchedule(const QString& scheduleId, const ScheduleSpec& spec,
                                       QObject* ctx, Done<SandboxSchedule> done)
{
    const auto req =
        RequestBuilder(m_endpoint).json("PATCH", schedulePath(scheduleId), scheduleBody(spec));
    return startCall<SandboxSchedule>(m_multi.get(), req, tr("Edit schedule"), ctx, std::move(done),
                                      parseSchedule);
}

PendingCall* LizardApi::setScheduleEnabled(const QString& scheduleId, bool enabled, QObject* ctx,
                                           Done<SandboxSchedule> done)
{
    const auto req =
        RequestBuilder(m_endpoint).json("PATCH", schedulePath(scheduleId), enabledBody(enabled));
    return startCall<SandboxSchedule>(m_multi.get(), req,
                                      enabled ? tr("Enable schedule") : tr("Disable schedule"), ctx,
                                      std::move(done), parseSchedule);
}

PendingCall* LizardApi::deleteSchedule(const QString& scheduleId, QObject* ctx, Done<Unit> done)
{
    return startCall<Unit>(m_multi.get(),
                           RequestBuilder(m_endpoint).json("DELETE", schedulePath(scheduleId)),
                           tr("Delete schedule"), ctx, std::move(done), noValue);
}

PendingCall* LizardApi::runSchedule(const QString& scheduleId, QObject* ctx,
                                    Done<SandboxSchedule> done)
{
    const auto req = RequestBuilder(m_endpoint)
                         .json("POST", schedulePath(scheduleId, "/run"), QByteArrayLiteral("{}"));
    return startCall<SandboxSchedule>(m_multi.get(), req, tr("Run schedule"), ctx, std::move(done),
                                      parseSchedule);
}

PendingCall* LizardApi::scheduleRuns(const QString& scheduleId, int limit, QObject* ctx,
                                     Done<QList<ScheduleRun>> done)
{
    const auto req =
        RequestBuilder(m_endpoint)
            .json("GET", schedulePath(scheduleId, "/runs?limit=" + QByteArray::number(limit)));
    return startCall<QList<ScheduleRun>>(m_multi.get(), req, tr("List schedule runs"), ctx,
                                         std::move(done), parseScheduleRuns);
}

} // namespace lizard::client
