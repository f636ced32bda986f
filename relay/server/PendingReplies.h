#pragma once

#include <condition_variable>
#include <mutex>

namespace buzz::relay {

// Counts answers still owed by work that finished on another thread than the one it started on
// (an asynchronous ingest completes on the writer's group thread), so that the server can wait for
// them before it goes away.
class PendingReplies
{
public:
    void add()
    {
        std::lock_guard lock(m_mutex);
        ++m_count;
    }
    void release()
    {
        std::lock_guard lock(m_mutex);
        if (--m_count == 0)
            m_none.notify_all();
    }
    void waitForNone()
    {
        std::unique_lock lock(m_mutex);
        m_none.wait(lock, [this] { return m_count == 0; });
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_none;
    int m_count = 0;
};

} // namespace buzz::relay
