#pragma once

// The replica side of one relay process as the router, search and the admin API see it: the
// simulated SQLite replicas (replication::ReplicaSet) or a real PostgreSQL standby
// (replication::PgStandbySet). Both keep the writer's heartbeat ring and prove a replica by the
// heartbeat it holds, so routing is the same code either way.

#include "relay/model/RouteMetrics.h"
#include "relay/replication/FenceRing.h"
#include "relay/replication/ReadReplica.h"
#include "relay/replication/RelayClock.h"
#include "relay/replication/ReplicationConfig.h"
#include "relay/replication/ScopePositions.h"

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace buzz::relay::replication {

class ReplicaTier
{
public:
    virtual ~ReplicaTier() = default;

    virtual int size() const = 0;
    virtual ReadReplica &replicaAt(int index) = 0;
    virtual std::vector<ReplicaProof> proofs() const = 0;

    virtual std::int64_t budgetMs() const = 0;
    virtual void setBudgetMs(std::int64_t budgetMs) = 0;
    virtual RelayClock &clock() = 0;
    virtual FenceRing &ring() = 0;
    // Per scope, how far a replica must have applied to serve a subscription's history.
    virtual ScopePositions &scopePositions() = 0;
    virtual RouteMetrics &metrics() = 0;
    virtual const ReplicationConfig &config() const = 0;

    // Round-robin start for the router's replica scan.
    virtual std::size_t nextStartIndex() = 0;
    // The per-process cap on subscription-history reads holding reader connections.
    virtual bool acquireHistoryPermit(std::chrono::milliseconds wait) = 0;
    virtual void releaseHistoryPermit() = 0;

    // One heartbeat on the writer (the driver calls it every 500 ms).
    virtual bool heartbeat() = 0;
    // Waits (real time) until every replica holds everything the writer has committed so far.
    virtual bool waitCaughtUp(std::chrono::milliseconds timeout) = 0;

    // GET /admin/state.
    virtual nlohmann::json state() const = 0;
    // Route-decision counters and (only with replicas) the read-pool gauges.
    virtual std::string metricsText() const = 0;
    // Startup lines naming the writer and each replica.
    virtual std::vector<std::string> describe() const = 0;
};

} // namespace buzz::relay::replication
