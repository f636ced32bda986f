#pragma once

#include "relay/replication/ReplicaTier.h"
#include "relay/replication/ReplicationConfig.h"

#include <memory>
#include <string>
#include <vector>

namespace buzz::relay::store {
class Store;
}

namespace buzz::relay::replication {

class ReplicaSet;

// The replica side of whichever store the engine opened: the simulated SQLite replicas
// (sqlite/ReplicaSet) replaying the writer's commit log, or the PostgreSQL streaming standby
// (postgres/PgStandbySet). Chosen by the store itself (store::StoreVisitor), so the engine holds
// one store and one tier and never names a backend.
class ReplicaTiers
{
public:
    struct Attached
    {
        std::unique_ptr<ReplicaTier> tier; // null only with `fatal`
        // The simulated SQLite replicas when that is the tier (tests drive them by hand).
        ReplicaSet *simulated = nullptr;
        std::string error; // why the configured replicas could not be used ("" = they could)
        bool fatal = false; // the configuration cannot run on this store: the relay must not start
    };
    // `standbyUrls`: the PostgreSQL standby (--read-database-url). When the configured replicas
    // fail, the tier still exists, without them (every read on the writer).
    static Attached attach(store::Store &store, const ReplicationConfig &config,
                           const std::vector<std::string> &standbyUrls);
};

} // namespace buzz::relay::replication
