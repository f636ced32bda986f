#include "relay/server/JobQueue.h"

#include <sys/resource.h>
#include <unistd.h>

namespace buzz::relay {

void JobQueue::push(std::function<void()> job)
{
    bool startRunner = false;
    {
        std::lock_guard lock(m_mutex);
        m_jobs.push_back(std::move(job));
        if (m_runners < m_maxRunners) {
            ++m_runners;
            startRunner = true;
        }
    }
    if (startRunner)
        m_pool.start([this] { runUntilEmpty(); });
}

void JobQueue::runUntilEmpty()
{
    thread_local int appliedNiceness = 0;
    if (m_niceness > appliedNiceness) {
        setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), m_niceness);
        appliedNiceness = m_niceness;
    }
    for (;;) {
        std::function<void()> job;
        {
            std::lock_guard lock(m_mutex);
            if (m_jobs.empty()) {
                --m_runners;
                return;
            }
            job = std::move(m_jobs.front());
            m_jobs.pop_front();
        }
        job();
    }
}

} // namespace buzz::relay
