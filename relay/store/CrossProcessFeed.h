#pragma once

#include "relay/model/StoredEvent.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace buzz::relay::store {

// Events other relay processes committed to the same database, handed to this one's live
// fan-out (relay/README.md "Live fan-out across processes"): the PostgreSQL store's
// PgFanoutListener. Delivery stops when it is destroyed.
class CrossProcessFeed
{
public:
    // Called on the feed's own thread, in commit order, with a writer position read after those
    // commits (for replication::ScopePositions).
    using Deliver = std::function<void(std::vector<StoredEvent> events, std::int64_t position)>;

    virtual ~CrossProcessFeed() = default;
    // Prometheus lines of the feed.
    virtual std::string metricsText() const = 0;
};

} // namespace buzz::relay::store
