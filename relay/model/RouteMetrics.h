#pragma once

// buzz_db_route_decision_total{path,decision,reason}: one count per routed read, by the pool that
// finally served it (or "rejected" for a retryable refusal) and why. Thread-safe.

#include "relay/model/ReadPath.h"
#include "relay/model/RouteTypes.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

namespace buzz::relay {

class RouteMetrics
{
public:
    void record(ReadPath path, RouteDecisionLabel decision, RouteReason reason);
    std::uint64_t count(ReadPath path, RouteDecisionLabel decision, RouteReason reason) const;
    std::uint64_t total(RouteDecisionLabel decision) const;
    // Prometheus text lines (with HELP/TYPE), empty series omitted.
    std::string text() const;

private:
    using Key = std::tuple<ReadPath, RouteDecisionLabel, RouteReason>;
    mutable std::mutex m_mutex;
    std::map<Key, std::uint64_t> m_counts;
};

} // namespace buzz::relay
