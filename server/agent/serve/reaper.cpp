#include "agent/serve/reaper.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
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

std::shared_ptr<ExitSlot> Reaper::watchLocked(pid_t pid, std::string command)
{
    auto slot = std::make_shared<ExitSlot>();
    m_slots[pid] = {slot, std::move(command)};
    return slot;
}

void Reaper::logSignalExit(pid_t pid, int sig)
{
    // A zombie keeps its name (comm) but not its command line; an exec'd command's is known.
    std::string comm;
    std::getline(std::ifstream("/proc/" + std::to_string(pid) + "/comm"), comm);
    std::string command;
    {
        std::lock_guard lock(m_mutex);
        if (const auto it = m_slots.find(pid); it != m_slots.end())
            command = it->second.command;
    }
    if (command.size() > 512)
        command.resize(512);
    for (std::string* s : {&comm, &command})
        for (char& c : *s)
            if (c == '\n' || c == '\r')
                c = ' ';
    const char* abbrev = ::sigabbrev_np(sig);
    const std::string name = abbrev ? std::string("SIG") + abbrev : std::to_string(sig);
    std::fprintf(stderr, "lizard-agent: exit-signal ts=%lld pid=%d signal=%s comm=%s cmd=%s\n",
                 static_cast<long long>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                            std::chrono::system_clock::now().time_since_epoch())
                                            .count()),
                 int(pid), name.c_str(), comm.c_str(), command.c_str());
    std::fflush(stderr);
}

void Reaper::reapAll()
{
    for (;;) {
        // Look first without reaping: until waitpid, /proc/<pid> still names the process.
        siginfo_t info{};
        if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) != 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        const pid_t pid = info.si_pid;
        if (pid == 0)
            return;
        if (info.si_code == CLD_KILLED || info.si_code == CLD_DUMPED)
            logSignalExit(pid, info.si_status);
        int status = 0;
        pid_t reaped = -1;
        do
            reaped = ::waitpid(pid, &status, WNOHANG);
        while (reaped < 0 && errno == EINTR);
        if (reaped != pid)
            continue;
        std::shared_ptr<ExitSlot> slot;
        {
            std::lock_guard lock(m_mutex);
            auto it = m_slots.find(pid);
            if (it != m_slots.end()) {
                slot = std::move(it->second.slot);
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
