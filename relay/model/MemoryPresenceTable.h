#pragma once

#include "relay/model/PresenceTable.h"

#include <mutex>
#include <unordered_map>

namespace buzz::relay {

// The presence table of one relay process, in memory: what a restart forgets is at most 90 s of
// statuses that clients renew anyway.
class MemoryPresenceTable : public PresenceTable
{
public:
    void update(const std::string &community, const std::string &pubkey, const std::string &status,
                std::int64_t createdAt, std::int64_t now) override;
    std::vector<Entry> lookup(const std::string &community, const std::vector<std::string> &pubkeys,
                              std::int64_t now) override;

    // Entries held, expired ones not yet swept included.
    std::size_t size() const;

private:
    struct Kept
    {
        std::string status;
        std::int64_t createdAt = 0;
        std::int64_t receivedAt = 0;
    };
    // Drops what expired; called every kSweepEvery updates, so the table holds the authors of
    // the last 90 s and no more.
    void sweepLocked(std::int64_t now);

    static constexpr std::size_t kSweepEvery = 256;
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, Kept> m_kept; // community + '\n' + pubkey
    std::size_t m_updates = 0;
};

} // namespace buzz::relay
