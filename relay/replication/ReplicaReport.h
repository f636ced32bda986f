#pragma once

// What /admin/state, /metrics and the startup lines say about read replicas, whatever they are:
// the simulated SQLite replicas (ReplicaSet) and a PostgreSQL standby (PgStandbySet) are proved,
// paused, lagged, faulted and pooled the same way (ReadReplica), so they are reported by one piece
// of code; each set adds only what its kind of replica has.

#include "relay/model/ReplicaProof.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace buzz::relay::replication {

class FenceRing;
class ReadReplica;

class ReplicaReport
{
public:
    // The replicas a set owns, as the report reads them.
    template<typename Owned>
    static std::vector<const ReadReplica *> view(const std::vector<std::unique_ptr<Owned>> &owned)
    {
        std::vector<const ReadReplica *> out;
        out.reserve(owned.size());
        for (const auto &replica : owned)
            out.push_back(replica.get());
        return out;
    }

    // Each replica's proof: the ring entry its last known heartbeat resolves to.
    static std::vector<ReplicaProof> proofs(const std::vector<const ReadReplica *> &replicas,
                                            const FenceRing &ring);
    // One replica's /admin/state entry: index, name, lag, pause, heartbeat and proof (with its age
    // at `nowMs` and the wall when proved), pending faults and its reader pool.
    static nlohmann::json entry(const ReadReplica &replica, const FenceRing &ring,
                                std::int64_t nowMs);
    // The buzz_db_read_pool_{size,idle,active,max} gauges, one series per replica.
    static std::string poolGauges(const std::vector<const ReadReplica *> &replicas);
    // The startup line saying whether reads are routed, and under which budget.
    static std::string routingLine(std::int64_t budgetMs);
};

} // namespace buzz::relay::replication
