#pragma once

// The replica tier of one relay process: the fence ring and heartbeat on the writer, N replicas
// replaying the commit log, the routing budget, the history-read cap and the route metrics.
// Either a background driver beats and replays in real time, or a test calls heartbeat() and
// pump() itself under a manual clock.

#include "relay/model/RouteMetrics.h"
#include "relay/replication/FenceRing.h"
#include "relay/replication/ReplicaTier.h"
#include "relay/replication/ReplicationConfig.h"
#include "relay/replication/sqlite/HeartbeatWriter.h"
#include "relay/replication/sqlite/Replica.h"

#include <nlohmann/json_fwd.hpp>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <semaphore>
#include <string>
#include <thread>
#include <vector>

namespace buzz::relay::store {
class SqliteStore;
}

namespace buzz::relay::replication {

class ReplicaSet final : public ReplicaTier
{
public:
    // Opens config.replicas replicas of `database` (with its extensions) and starts replaying its
    // commit log. Reads reach them only through a router (routing::ReplicaRouter); with 0
    // replicas there is nothing to route to and every read stays on the writer.
    static std::unique_ptr<ReplicaSet> attach(store::SqliteStore &database,
                                              ReplicationConfig config, std::string &error);
    ~ReplicaSet() override;
    ReplicaSet(const ReplicaSet &) = delete;
    ReplicaSet &operator=(const ReplicaSet &) = delete;

    // One heartbeat on the writer (the driver calls it every 500 ms).
    bool heartbeat() override;
    // Applies, to every unpaused replica, the commit records that are at least its lag old.
    void pump();
    // Both, when due: what the driver runs every few milliseconds.
    void tick();
    // Waits (real time) until every replica has applied the writer's current last LSN.
    bool waitCaughtUp(std::chrono::milliseconds timeout) override;

    int size() const override { return static_cast<int>(m_replicas.size()); }
    Replica &replica(int index) { return *m_replicas.at(index); }
    ReadReplica &replicaAt(int index) override { return *m_replicas.at(index); }
    ReplicaProof proof(int index) const;
    std::vector<ReplicaProof> proofs() const override;
    std::int64_t writerLsn() const;

    std::int64_t budgetMs() const override { return m_budgetMs.load(); }
    void setBudgetMs(std::int64_t budgetMs) override;
    RelayClock &clock() override { return *m_config.clock; }
    std::shared_ptr<RelayClock> sharedClock() const { return m_config.clock; }
    FenceRing &ring() override { return m_ring; }
    ScopePositions &scopePositions() override { return m_scopes; }
    RouteMetrics &metrics() override { return m_metrics; }
    const ReplicationConfig &config() const override { return m_config; }
    store::SqliteStore &database() { return m_database; }

    // Round-robin start for the router's replica scan.
    std::size_t nextStartIndex() override
    {
        return m_roundRobin.fetch_add(1, std::memory_order_relaxed);
    }
    // The per-process cap on subscription-history reads holding reader connections.
    bool acquireHistoryPermit(std::chrono::milliseconds wait) override;
    void releaseHistoryPermit() override { m_historyPermits.release(); }

    // GET /admin/state.
    nlohmann::json state() const override;
    // Route-decision counters and (only with replicas) the read-pool gauges.
    std::string metricsText() const override;
    // Startup lines naming the writer and each replica.
    std::vector<std::string> describe() const override;

private:
    ReplicaSet(store::SqliteStore &database, ReplicationConfig config);
    void fetchNewRecords();
    // Whether `replica` needs a record that is neither fetched nor in the writer's log any more.
    bool fellBehindTheLog(const Replica &replica) const;
    void runDriver();

    store::SqliteStore &m_database;
    ReplicationConfig m_config;
    FenceRing m_ring;
    ScopePositions m_scopes;
    HeartbeatWriter m_heartbeat;
    std::vector<std::unique_ptr<Replica>> m_replicas;
    RouteMetrics m_metrics;
    std::atomic<std::int64_t> m_budgetMs;
    std::atomic<std::size_t> m_roundRobin {0};
    std::counting_semaphore<1024> m_historyPermits;

    std::mutex m_pumpMutex;
    // Fetched records not yet applied by every replica: contiguous LSNs ending at m_fetchedThrough,
    // at most m_maxTail of them (the commit log's backlog bound).
    std::deque<CommitRecord> m_tail;
    std::int64_t m_fetchedThrough = 0;
    std::size_t m_maxTail = 0;
    std::int64_t m_lastBeatMs = 0;

    std::mutex m_progressMutex;
    std::condition_variable m_progress;

    std::atomic<bool> m_stopping {false};
    std::mutex m_driverMutex;
    std::condition_variable m_driverWake;
    std::thread m_driver;
};

} // namespace buzz::relay::replication
