#include "relay/replication/RelayClock.h"

#include <chrono>

namespace buzz::relay::replication {

std::shared_ptr<RelayClock> RelayClock::system()
{
    return std::shared_ptr<RelayClock>(new RelayClock(false, 0));
}

std::shared_ptr<RelayClock> RelayClock::manual(std::int64_t startMs)
{
    return std::shared_ptr<RelayClock>(new RelayClock(true, startMs));
}

std::int64_t RelayClock::nowMs() const
{
    std::int64_t base = m_manualMs.load();
    if (!m_manual) {
        base = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
    }
    return base + m_offsetMs.load();
}

} // namespace buzz::relay::replication
