#include "relay/auth/ReplayCache.h"

namespace buzz::relay {

ReplayCache::ReplayCache(std::int64_t windowSecs)
    : m_windowSecs(windowSecs)
{ }

bool ReplayCache::remember(const std::string &id, std::int64_t now)
{
    std::lock_guard lock(m_mutex);
    expire(now);
    if (!m_seen.insert(id).second)
        return false;
    m_bySeenTime.emplace_back(now, id);
    return true;
}

std::size_t ReplayCache::size() const
{
    std::lock_guard lock(m_mutex);
    return m_seen.size();
}

void ReplayCache::expire(std::int64_t now)
{
    while (!m_bySeenTime.empty() && now - m_bySeenTime.front().first >= m_windowSecs) {
        m_seen.erase(m_bySeenTime.front().second);
        m_bySeenTime.pop_front();
    }
}

} // namespace buzz::relay
