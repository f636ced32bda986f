#pragma once

// The router with replicas behind it: acts on the pure decision (RoutePolicy). For each read it
// resolves every replica's heartbeat proof, decides, borrows a reader connection (bounded wait,
// history cap), re-checks the proof inside the snapshot it will read, and settles the read
// afterwards (replica error → writer, timeout → surfaced, thread page → verified). Every outcome is
// counted in buzz_db_route_decision_total.

#include "relay/routing/ReadRouter.h"
#include "relay/routing/RoutePolicy.h"

#include <memory>
#include <vector>

namespace buzz::relay::store {
class Store;
}

namespace buzz::relay::replication {
class ReplicaTier;
}

namespace buzz::relay::routing {

class ReplicaRouter : public ReadRouter
{
public:
    ReplicaRouter(store::Store &database, replication::ReplicaTier &replicas);
    ReadLease route(const ReadRequest &request) override;

    // The request's filters as route requests (one per filter; one synthetic one without filters).
    static std::vector<RouteRequest> routeRequestsFor(const ReadRequest &request);
    // All filters must be servable by the same replica; tried in round-robin order from `start`.
    static RouteDecision decideAll(const std::vector<RouteRequest> &requests, std::int64_t budgetMs,
                                   std::int64_t nowMs, const std::vector<ReplicaProof> &proofs,
                                   std::size_t start);

private:
    struct Ticket;
    ReadLease writerLease(ReadPath path, RouteReason reason, bool count);
    ReadLease writerLease(std::string reason);
    static ReadSettlement settle(Ticket &ticket, const ReadAttempt &attempt);

    store::Store &m_database;
    replication::ReplicaTier &m_replicas;
};

} // namespace buzz::relay::routing
