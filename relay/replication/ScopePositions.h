#pragma once

// What a replica must have applied before it may serve a subscription's history (relay/README.md
// "A subscription converges"). For every scope — a kind in one channel, or in a community's rows
// outside channels — the writer remembers the commit position its last commit had reached (the
// commit-log LSN on SQLite, the primary's WAL position on PostgreSQL, read after the COMMIT).
// Replicas apply in commit order, so one whose applied position is at or past it holds that
// commit. A REQ asks for the greatest position of the scopes its history can read when it is
// routed, which is after it went live; every commit after that moment reaches it live.
// Thread-safe.

#include "relay/model/ReadRequest.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace buzz::relay::replication {

class ScopePositions
{
public:
    // After an event's transaction committed (`position` read after the COMMIT returned), before
    // the event is fanned out to subscriptions. `changesOtherKinds`: the event changed rows of
    // other kinds too (a deletion soft-deletes its target).
    void committed(const std::string &community, const std::optional<std::string> &channel,
                   int kind, bool changesOtherKinds, std::int64_t position);
    // The position a replica must have applied to hold every commit made so far that a read of
    // `scope` in `community` can see. 0: any replica will do.
    std::int64_t required(const std::string &community, const ReadRequest::LiveScope &scope) const;
    // Every replica has applied this far (it only grows): entries at or below it ask nothing any
    // replica lacks, and are dropped once the map has doubled.
    void setAppliedByAll(std::int64_t position);

    std::size_t size() const;

private:
    // Per channel (or outside channels: ""), a kind's last commit, any kind's, and the last
    // commit that changed rows of kinds other than its own.
    static constexpr const char *kAnyKind = "*";
    static constexpr const char *kOtherKinds = "x";
    static std::string key(const std::string &community, const std::string &channel,
                           const std::string &kind);
    void raise(const std::string &key, std::int64_t position);
    std::int64_t find(const std::string &key) const;

    mutable std::mutex m_mutex;
    std::unordered_map<std::string, std::int64_t> m_positions;
    std::int64_t m_appliedByAll = 0;
    std::int64_t m_pruned = 0; // the position entries were dropped at, asked of every scope
    std::size_t m_pruneAt = 1024;
};

} // namespace buzz::relay::replication
