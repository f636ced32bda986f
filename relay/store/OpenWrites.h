#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <set>

namespace buzz::relay::store {

// The start times (relay clock) of the writes a store has begun and not yet finished, including
// those still queued for the writer, the same for both backends: the replica fence wall must stay
// below the oldest (Store::openWriteStartedAtMs). Thread-safe.
class OpenWrites
{
public:
    void remember(std::int64_t startedAtMs)
    {
        std::lock_guard guard(m_mutex);
        m_starts.insert(startedAtMs);
    }
    void forget(std::int64_t startedAtMs)
    {
        std::lock_guard guard(m_mutex);
        if (const auto it = m_starts.find(startedAtMs); it != m_starts.end())
            m_starts.erase(it);
    }
    std::optional<std::int64_t> oldest() const
    {
        std::lock_guard guard(m_mutex);
        if (m_starts.empty())
            return std::nullopt;
        return *m_starts.begin();
    }

private:
    mutable std::mutex m_mutex;
    std::multiset<std::int64_t> m_starts;
};

} // namespace buzz::relay::store
