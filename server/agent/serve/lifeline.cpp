#include "agent/serve/lifeline.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <exception>
#include <thread>
#include <unistd.h>

namespace lizard::agent {

bool watchLifeline(int fd)
{
    try {
        std::thread([fd] {
            char byte;
            ssize_t n;
            do // nothing is ever written: only the end of file comes
                n = ::read(fd, &byte, 1);
            while (n < 0 && errno == EINTR);
            std::fprintf(stderr, "lizard-agent: fatal: the disk quota daemon of this sandbox "
                                 "ended; its files are unreachable, so the sandbox ends\n");
            ::kill(-1, SIGKILL); // every process of the sandbox's pid namespace but this one
            ::_exit(1);
        }).detach();
        return true;
    } catch (const std::exception&) {
        return false;
    }
}

} // namespace lizard::agent
