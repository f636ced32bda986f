#pragma once

// Settings of the replica tier, from options and the real relay's environment variables.

#include "relay/replication/RelayClock.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace buzz::relay::replication {

struct ReplicationConfig
{
    int replicas = 0; // --replicas N
    std::int64_t lagMs = 0; // --replica-lag-ms MS
    std::int64_t budgetMs = 0; // BUZZ_REPLICA_READ_MAX_AGE_MS (0 = off, clamp 30 000)
    int readPoolSize = 4; // BUZZ_DB_READ_POOL_SIZE: reader connections per replica
    std::optional<std::string> dataDir; // replica files live next to the writer's
    std::shared_ptr<RelayClock> clock;
    std::chrono::milliseconds acquireTimeout {150};
    std::chrono::milliseconds statementTimeout {2000};
    bool runDriver = true; // background heartbeat + replay; tests drive both by hand instead

    // Reads the environment into `config`. Returns a startup error, if any (a malformed or
    // negative budget, the retired BUZZ_REPLICA_HEAD_MAX_AGE_SECS, a bad pool size).
    static std::optional<std::string> applyEnvironment(ReplicationConfig &config);

    // Subscription-history reads may hold at most this many reader connections per process, so
    // one history storm can never take every reader from display reads.
    int historyReadCap() const { return readPoolSize > 1 ? readPoolSize - 1 : 1; }
};

} // namespace buzz::relay::replication
