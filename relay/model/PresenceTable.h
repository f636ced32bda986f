#pragma once

#include "relay/model/StoredEvent.h"

#include <cstdint>
#include <string>
#include <vector>

namespace buzz::relay {

// Each author's latest presence status (kind 20001, docs/buzz-protocol.md §Presence and typing),
// kept kTtlSeconds after it was set unless renewed; "offline" clears it. Presence is global but
// kept per community, as everything else the relay holds. Implementations are thread-safe:
// ingest writes from the verify pool, queries read from the worker threads. MemoryPresenceTable
// serves one process; a deployment of several processes needs a shared one behind this
// interface.
class PresenceTable
{
public:
    static constexpr std::int64_t kTtlSeconds = 90;
    static constexpr const char *kOffline = "offline";

    struct Entry
    {
        std::string pubkey;
        std::string status;
        std::int64_t createdAt = 0; // of the author's 20001 that set it
    };

    virtual ~PresenceTable() = default;

    // The author's 20001 with `status`, received at `now` (relay clock, seconds). An event older
    // than the status already kept changes nothing; "offline" removes it.
    virtual void update(const std::string &community, const std::string &pubkey,
                        const std::string &status, std::int64_t createdAt, std::int64_t now) = 0;
    // Hands the author's 20001 to the live subscriptions of the other relay processes sharing
    // this table (relay/README.md "Live fan-out across processes"); nothing for one process's.
    virtual void fanOut(const StoredEvent &) { }
    // The live statuses of `pubkeys` (each at most once, in the order asked), at `now`.
    virtual std::vector<Entry> lookup(const std::string &community,
                                      const std::vector<std::string> &pubkeys,
                                      std::int64_t now) = 0;
};

} // namespace buzz::relay
