#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>

namespace buzz::relay {

// Remembers NIP-98 event ids for a fixed window so a captured Authorization header cannot be
// replayed. Thread-safe: HTTP auth runs on the worker pool.
class ReplayCache
{
public:
    explicit ReplayCache(std::int64_t windowSecs);

    // True when `id` was not seen within the window (and remembers it); false on a replay.
    bool remember(const std::string &id, std::int64_t now);
    std::size_t size() const;

private:
    void expire(std::int64_t now);

    const std::int64_t m_windowSecs;
    mutable std::mutex m_mutex;
    std::unordered_set<std::string> m_seen;
    std::deque<std::pair<std::int64_t, std::string>> m_bySeenTime; // oldest first
};

} // namespace buzz::relay
