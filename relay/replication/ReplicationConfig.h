#pragma once

// Settings of the replica tier. Values only: app/ turns flags and environment variables into them.

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
    std::int64_t budgetMs = 0; // replica read budget: 0 = off, clamped to kMaxReadBudgetMs
    int readPoolSize = 4; // reader connections per replica
    std::optional<std::string> dataDir; // replica files live next to the writer's
    std::shared_ptr<RelayClock> clock;
    std::chrono::milliseconds acquireTimeout {150};
    std::chrono::milliseconds statementTimeout {2000};
    bool runDriver = true; // background heartbeat + replay; tests drive both by hand instead

    // Subscription-history reads may hold at most this many reader connections per process, so
    // one history storm can never take every reader from display reads.
    int historyReadCap() const { return readPoolSize > 1 ? readPoolSize - 1 : 1; }
};

} // namespace buzz::relay::replication
