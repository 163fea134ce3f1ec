#include "agent/reaper.h"

#include <cerrno>
#include <csignal>
#include <sys/eventfd.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace lizard::agent {

ExitSlot::ExitSlot() : m_eventFd(::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

ExitSlot::~ExitSlot()
{
    if (m_eventFd >= 0)
        ::close(m_eventFd);
}

bool ExitSlot::exited() const
{
    std::lock_guard lock(m_mutex);
    return m_exited;
}

int ExitSlot::status() const
{
    std::lock_guard lock(m_mutex);
    return m_status;
}

void ExitSlot::deliver(int status)
{
    {
        std::lock_guard lock(m_mutex);
        m_exited = true;
        m_status = status;
    }
    std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(m_eventFd, &one, sizeof one);
}

void Reaper::start()
{
    std::thread([this] { run(); }).detach();
}

std::shared_ptr<ExitSlot> Reaper::watchLocked(pid_t pid)
{
    auto slot = std::make_shared<ExitSlot>();
    m_slots[pid] = slot;
    return slot;
}

void Reaper::reapAll()
{
    for (;;) {
        int status = 0;
        pid_t pid = ::waitpid(-1, &status, WNOHANG);
        if (pid < 0 && errno == EINTR)
            continue;
        if (pid <= 0)
            return;
        std::shared_ptr<ExitSlot> slot;
        {
            std::lock_guard lock(m_mutex);
            auto it = m_slots.find(pid);
            if (it != m_slots.end()) {
                slot = std::move(it->second);
                m_slots.erase(it);
            }
        }
        if (slot)
            slot->deliver(status);
    }
}

void Reaper::run()
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGCHLD);
    for (;;) {
        reapAll();
        int sig = 0;
        sigwait(&set, &sig);
    }
}

} // namespace lizard::agent
