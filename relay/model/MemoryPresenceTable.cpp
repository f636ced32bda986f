#include "relay/model/MemoryPresenceTable.h"

#include <unordered_set>

namespace buzz::relay {

namespace {

std::string keyOf(const std::string &community, const std::string &pubkey)
{
    return community + '\n' + pubkey;
}

bool expired(std::int64_t receivedAt, std::int64_t now)
{
    return now - receivedAt >= PresenceTable::kTtlSeconds;
}

} // namespace

void MemoryPresenceTable::update(const std::string &community, const std::string &pubkey,
                                 const std::string &status, std::int64_t createdAt,
                                 std::int64_t now)
{
    std::lock_guard lock(m_mutex);
    if (++m_updates % kSweepEvery == 0)
        sweepLocked(now);
    const std::string key = keyOf(community, pubkey);
    const auto kept = m_kept.find(key);
    if (kept != m_kept.end() && !expired(kept->second.receivedAt, now)
        && createdAt < kept->second.createdAt)
        return; // an older status that arrived late
    if (status == kOffline) {
        if (kept != m_kept.end())
            m_kept.erase(kept);
        return;
    }
    m_kept[key] = Kept {status, createdAt, now};
}

std::vector<PresenceTable::Entry>
MemoryPresenceTable::lookup(const std::string &community, const std::vector<std::string> &pubkeys,
                            std::int64_t now)
{
    std::vector<Entry> live;
    std::unordered_set<std::string> seen;
    std::lock_guard lock(m_mutex);
    for (const std::string &pubkey : pubkeys) {
        if (!seen.insert(pubkey).second)
            continue;
        const auto kept = m_kept.find(keyOf(community, pubkey));
        if (kept == m_kept.end() || expired(kept->second.receivedAt, now))
            continue;
        live.push_back(Entry {pubkey, kept->second.status, kept->second.createdAt});
    }
    return live;
}

std::size_t MemoryPresenceTable::size() const
{
    std::lock_guard lock(m_mutex);
    return m_kept.size();
}

void MemoryPresenceTable::sweepLocked(std::int64_t now)
{
    for (auto it = m_kept.begin(); it != m_kept.end();) {
        if (expired(it->second.receivedAt, now))
            it = m_kept.erase(it);
        else
            ++it;
    }
}

} // namespace buzz::relay
