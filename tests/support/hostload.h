#pragma once
// A busy thread on every core of the host, for tests that must hold under load. Threads, not
// processes: they die with the test however it ends.

#include <QThread>
#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace lizard::test {

class HostLoad
{
public:
    ~HostLoad() { stop(); }

    void start()
    {
        m_stop = false;
        for (int i = 0; i < std::max(1, QThread::idealThreadCount()); ++i)
            m_threads.emplace_back([this] {
                volatile unsigned long spin = 0;
                while (!m_stop.load(std::memory_order_relaxed))
                    spin = spin + 1;
            });
    }

    void stop()
    {
        m_stop = true;
        for (auto& t : m_threads)
            t.join();
        m_threads.clear();
    }

    size_t threads() const { return m_threads.size(); }

private:
    std::atomic<bool> m_stop{false};
    std::vector<std::thread> m_threads;
};

} // namespace lizard::test
