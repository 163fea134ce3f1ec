#pragma once
// The HTTP front: a Listener on 127.0.0.1, the live sessions, and a graceful stop.

#include "common/result.h"
#include "http/beast.h"

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

namespace lizard::http {

class Listener;
class RequestHandler;
class SessionRegistry;

// The connections' threads. Each connection lives on one of a few io_contexts, each run by one
// thread: a request is read, answered and written by the thread whose epoll saw it. With one
// io_context shared by several threads, most of a GET's time went to handing its completions
// from one thread to another (futex wake-ups and context switches, `make bench`).
class SessionThreads
{
public:
    explicit SessionThreads(int count);
    ~SessionThreads();           // stops and joins the threads
    net::any_io_executor next(); // round robin

private:
    std::vector<std::unique_ptr<net::io_context>> m_contexts;
    std::vector<net::executor_work_guard<net::io_context::executor_type>> m_guards;
    std::vector<std::thread> m_threads;
    std::size_t m_next = 0;
};

class HttpServer
{
public:
    // The listener runs on `ioc`; connections on `sessionThreads` threads of their own.
    HttpServer(net::io_context& ioc, RequestHandler& handler, int sessionThreads = 2);
    ~HttpServer();

    Status listen(unsigned short port);
    unsigned short port() const;
    void start();
    // Stops accepting, lets running exchanges finish for up to `grace`, then closes the rest.
    void stop(std::chrono::milliseconds grace);

private:
    net::io_context& m_ioc;
    std::shared_ptr<SessionRegistry> m_registry;
    std::unique_ptr<SessionThreads> m_threads;
    std::shared_ptr<Listener> m_listener;
};

} // namespace lizard::http
