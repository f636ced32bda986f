#pragma once

// The replica tier on PostgreSQL: the writer's heartbeat (PgHeartbeat) and fence ring, and the
// real streaming hot standby of --read-database-url (PgStandby). A background driver beats every
// 500 ms and asks the standby for its position every 100 ms; a test drives both by hand instead.

#include "relay/model/RouteMetrics.h"
#include "relay/replication/FenceRing.h"
#include "relay/replication/ReplicaTier.h"
#include "relay/replication/postgres/PgHeartbeat.h"
#include "relay/replication/postgres/PgStandby.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <semaphore>
#include <string>
#include <thread>
#include <vector>

namespace buzz::relay::store {
class PgStore;
}

namespace buzz::relay::replication {

class PgStandbySet final : public ReplicaTier
{
public:
    static std::unique_ptr<PgStandbySet> attach(store::PgStore &writer,
                                                const std::vector<std::string> &readUrls,
                                                ReplicationConfig config, std::string &error);
    ~PgStandbySet() override;

    int size() const override { return static_cast<int>(m_standbys.size()); }
    ReadReplica &replicaAt(int index) override { return *m_standbys.at(index); }
    PgStandby &standby(int index) { return *m_standbys.at(index); }
    std::vector<ReplicaProof> proofs() const override;
    std::int64_t budgetMs() const override { return m_budgetMs.load(); }
    void setBudgetMs(std::int64_t budgetMs) override;
    RelayClock &clock() override { return *m_config.clock; }
    FenceRing &ring() override { return m_ring; }
    ScopePositions &scopePositions() override { return m_scopes; }
    RouteMetrics &metrics() override { return m_metrics; }
    const ReplicationConfig &config() const override { return m_config; }
    std::size_t nextStartIndex() override
    {
        return m_roundRobin.fetch_add(1, std::memory_order_relaxed);
    }
    bool acquireHistoryPermit(std::chrono::milliseconds wait) override
    {
        return m_historyPermits.try_acquire_for(wait);
    }
    void releaseHistoryPermit() override { m_historyPermits.release(); }

    bool heartbeat() override;
    // Every standby's replay position (pg_last_wal_replay_lsn) reached the writer's current WAL
    // position (pg_current_wal_lsn) as it was when the wait began.
    bool waitCaughtUp(std::chrono::milliseconds timeout) override;
    // Asks every standby where it is (what the driver does every 100 ms).
    void refresh();

    nlohmann::json state() const override;
    std::string metricsText() const override;
    std::vector<std::string> describe() const override;

private:
    PgStandbySet(store::PgStore &writer, ReplicationConfig config);
    void runDriver();

    store::PgStore &m_writer;
    ReplicationConfig m_config;
    FenceRing m_ring;
    ScopePositions m_scopes;
    PgHeartbeat m_heartbeat;
    std::vector<std::unique_ptr<PgStandby>> m_standbys;
    RouteMetrics m_metrics;
    std::atomic<std::int64_t> m_budgetMs;
    std::atomic<std::size_t> m_roundRobin {0};
    std::counting_semaphore<1024> m_historyPermits;

    std::atomic<bool> m_stopping {false};
    std::mutex m_driverMutex;
    std::condition_variable m_driverWake;
    std::thread m_driver;
};

} // namespace buzz::relay::replication
