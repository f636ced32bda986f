#include "relay/replication/ReplicaReport.h"

#include "relay/replication/FenceRing.h"
#include "relay/replication/ReadReplica.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace buzz::relay::replication {

std::vector<ReplicaProof> ReplicaReport::proofs(const std::vector<const ReadReplica *> &replicas,
                                                const FenceRing &ring)
{
    std::vector<ReplicaProof> out;
    out.reserve(replicas.size());
    for (const ReadReplica *replica : replicas) {
        out.push_back(ring.resolve(replica->heartbeat()));
        out.back().position = replica->appliedPosition();
    }
    return out;
}

nlohmann::json ReplicaReport::entry(const ReadReplica &replica, const FenceRing &ring,
                                    std::int64_t nowMs)
{
    const auto observed = replica.heartbeat();
    const ReplicaProof proof = ring.resolve(observed);
    nlohmann::json out = {
        {"index", replica.index()},
        {"name", replica.name()},
        {"lag_ms", replica.lagMs()},
        {"paused", replica.paused()},
        {"heartbeat_token", observed ? nlohmann::json(observed->token) : nlohmann::json(nullptr)},
        {"proof", FenceRing::stateName(proof.state)},
        {"faults",
         {{"error", replica.faults().pending(FaultKind::Error)},
          {"timeout", replica.faults().pending(FaultKind::Timeout)},
          {"busy", replica.faults().pending(FaultKind::Busy)}}},
        {"pool", {{"size", replica.poolSize()}, {"active", replica.activeReaders()}}},
    };
    if (proof.state == ReplicaProof::State::Proved) {
        out["proof_age_ms"] = std::max<std::int64_t>(0, nowMs - proof.entryCommittedAtMs);
        out["fence_wall"] = proof.fenceWallSec;
    }
    return out;
}

std::string ReplicaReport::poolGauges(const std::vector<const ReadReplica *> &replicas)
{
    std::string out;
    const char *names[] = {"size", "idle", "active", "max"};
    const char *help[] = {"Open reader connections", "Idle reader connections",
                          "Reader connections in use", "Configured reader pool size"};
    for (int metric = 0; metric < 4; ++metric) {
        out +=
            std::string("# HELP buzz_db_read_pool_") + names[metric] + ' ' + help[metric] + ".\n";
        out += std::string("# TYPE buzz_db_read_pool_") + names[metric] + " gauge\n";
        for (const ReadReplica *replica : replicas) {
            const int active = replica->activeReaders();
            const int size = replica->poolSize();
            const int values[] = {size, size - active, active, size};
            out += std::string("buzz_db_read_pool_") + names[metric] + "{pool=\"" + replica->name()
                + "\"} " + std::to_string(values[metric]) + '\n';
        }
    }
    return out;
}

std::string ReplicaReport::routingLine(std::int64_t budgetMs)
{
    // The budget's source (flag or variable) is the host's to name: the library only has a value.
    return budgetMs > 0
        ? "read routing: on, replica read budget " + std::to_string(budgetMs) + " ms"
        : std::string("read routing: off (replica read budget 0 ms), every read on the writer");
}

} // namespace buzz::relay::replication
