#pragma once

// The writer-side probe on PostgreSQL (docs/architecture.md §The fence), on a connection of its own
// to the primary: every 500 ms, in one transaction, sample the relay clock and the oldest open
// write — the oldest transaction holding a transaction id in this database (pg_stat_activity), and
// any write still queued in this process — advance the heartbeat row's token, and store the fence
// wall with it. The standby proves itself by the row it has replayed.

#include "relay/replication/FenceRing.h"
#include "relay/replication/RelayClock.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace buzz::relay::store {
class PgConnection;
class PgStore;
} // namespace buzz::relay::store

namespace buzz::relay::replication {

class PgHeartbeat
{
public:
    PgHeartbeat(store::PgStore &writer, FenceRing &ring, std::shared_ptr<RelayClock> clock);
    ~PgHeartbeat();

    bool connect(std::string &error);
    // One heartbeat. False (nothing recorded) when the write failed: the standby then simply goes
    // stale and reads fail closed to the writer.
    bool beat();
    std::int64_t lastToken() const { return m_lastToken; }
    // Age of the oldest open writing transaction at the last beat (ms), if there was one.
    std::optional<std::int64_t> lastOldestWriteAgeMs() const;

private:
    store::PgStore &m_writer;
    FenceRing &m_ring;
    std::shared_ptr<RelayClock> m_clock;
    mutable std::mutex m_mutex;
    std::unique_ptr<store::PgConnection> m_connection;
    std::int64_t m_lastToken = 0;
    std::optional<std::int64_t> m_oldestWriteAgeMs;
};

} // namespace buzz::relay::replication
