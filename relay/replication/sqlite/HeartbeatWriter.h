#pragma once

// The writer-side probe (docs/architecture.md §The fence): every 500 ms, in one write transaction,
// sample the clock and the oldest open write, advance the heartbeat token, and append the heartbeat
// to the commit log — last, so a replica that has replayed it has replayed everything committed
// before.

#include "relay/replication/FenceRing.h"
#include "relay/replication/RelayClock.h"

#include <cstdint>
#include <memory>

namespace buzz::relay::store {
class SqliteStore;
}

namespace buzz::relay::replication {

class HeartbeatWriter
{
public:
    static constexpr std::int64_t kIntervalMs = 500;

    HeartbeatWriter(store::SqliteStore &database, FenceRing &ring,
                    std::shared_ptr<RelayClock> clock);

    // Creates the token row if needed. False when the writer database refuses.
    bool initialize();
    // One heartbeat. False (nothing recorded) when the write failed: replicas then simply go
    // stale and reads fail closed to the writer.
    bool beat();

    std::int64_t lastToken() const { return m_lastToken; }

private:
    store::SqliteStore &m_database;
    FenceRing &m_ring;
    std::shared_ptr<RelayClock> m_clock;
    std::int64_t m_lastToken = 0;
};

} // namespace buzz::relay::replication
