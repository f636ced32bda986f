#pragma once

#include <QThreadPool>

#include <deque>
#include <functional>
#include <mutex>

namespace buzz::relay {

// Short jobs for the worker pool (an EVENT's signature check), run by at most `maxRunners` pool
// threads that each take jobs until the queue is empty, instead of one pool task (and one woken
// pool thread) per job: starting a task per event cost the network thread about 10 µs per event,
// mostly futex calls, and the relay 10-15 % of its CPU per event in all (relay_bench).
class JobQueue
{
public:
    // `niceness` > 0 lowers the priority of the pool's threads once they run a job (the pool
    // should then be the queue's own: the priority stays with the thread).
    JobQueue(QThreadPool &pool, int maxRunners, int niceness = 0)
        : m_pool(pool)
        , m_maxRunners(maxRunners)
        , m_niceness(niceness)
    { }

    void push(std::function<void()> job);

private:
    void runUntilEmpty();

    QThreadPool &m_pool;
    const int m_maxRunners;
    const int m_niceness;
    std::mutex m_mutex;
    std::deque<std::function<void()>> m_jobs;
    int m_runners = 0;
};

} // namespace buzz::relay
