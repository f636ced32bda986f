#pragma once

#include "relay/store/CommitLogRetention.h"

#include <atomic>
#include <cstdint>
#include <limits>

namespace buzz::relay::store {

class SqliteConnection;

// Keeps the writer's commit log bounded (CommitLogRetention). The replica tier reports how far
// every replica has applied; the writer trims, inside a write transaction just before its COMMIT,
// whatever every replica has applied beyond the tail, and never more than the backlog bound
// behind the newest record. The log stays one contiguous LSN range [firstLsn, newest]: records go
// only from the old end, and the newest always stays.
class CommitLogTrimmer
{
public:
    // Called once, before any write (SqliteStore::open, the engine's options).
    void setRetention(const CommitLogRetention &retention) { m_retention = retention.normalized(); }
    const CommitLogRetention &retention() const { return m_retention; }

    // The oldest record the writer holds, read at open. False on an SQLite error.
    bool load(SqliteConnection &writer);

    // The LSN every replica has applied (the replica tier, after each replay round). Never
    // called: no replica, only the tail is kept.
    void setAppliedThrough(std::int64_t lsn) { m_appliedThrough.store(lsn); }

    // Writer lock held, inside the transaction whose newest record is `newestLsn`. False on an
    // SQLite error (the transaction then rolls back).
    bool trimBeforeCommit(SqliteConnection &writer, std::int64_t newestLsn);

    // Records below this LSN may be gone. Raised before the COMMIT that removes them, so whoever
    // finds a record missing and then reads this sees it raised.
    std::int64_t firstLsn() const { return m_firstLsn.load(); }

private:
    CommitLogRetention m_retention;
    std::atomic<std::int64_t> m_appliedThrough {std::numeric_limits<std::int64_t>::max()};
    std::atomic<std::int64_t> m_firstLsn {1};
};

} // namespace buzz::relay::store
