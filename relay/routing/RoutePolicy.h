#pragma once

// The pure routing decision (no I/O, no clock, no state): which pool serves a read, under which
// proof, and what happens when a replica fails. Everything the decision depends on is an argument,
// so the rules are testable as a table. The router that acts on it is routing::ReplicaRouter.

#include "relay/model/ReadPath.h"
#include "relay/model/ReplicaProof.h"
#include "relay/model/RouteTypes.h"
#include "relay/routing/ReadShape.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace buzz::relay {

struct RouteRequest
{
    ReadPath path = ReadPath::BridgeQuery;
    bool strong = false; // "consistency":"strong" on the filter
    ReadShape shape;
    // A subscription's history (WS REQ): the commit position a replica must have applied to hold
    // every commit the read's scopes had when the subscription went live; 0 = no such need. Only
    // the bounded arm needs it: a content proof (covered) already holds every row below its wall.
    std::int64_t livePosition = 0;
};

struct RouteDecision
{
    int replica = -1; // -1 = writer
    RouteArm arm = RouteArm::Bounded;
    RouteReason reason = RouteReason::Disabled;
    std::int64_t fenceWallSec = 0; // the proved wall, for post-verification of thread pages

    bool onReplica() const { return replica >= 0; }
};

// What a replica did with a read the router sent to it.
enum class ReplicaOutcome {
    Ok,
    Error, // any failure other than a timeout
    StatementTimeout, // SQLSTATE 57014 analogue
    AcquireTimeout, // no reader connection (or history permit) within the bounded wait
    MissingRoot, // thread root absent on the replica snapshot
};

enum class OutcomeAction {
    Serve, // keep the replica's rows
    RerunOnWriter, // same read on the writer, reason recorded
    SurfaceTimeout, // HTTP 503 {"error":"query timed out"} / WS CLOSED "error: query timed out"
    RejectRetryable, // HTTP 503 + Retry-After / WS CLOSED "error: retryable: …"
};

struct OutcomeRule
{
    OutcomeAction action = OutcomeAction::Serve;
    RouteReason reason = RouteReason::Fresh;
};

class RoutePolicy
{
public:
    // The arm a caller class asks for, from the classification table (docs/architecture.md
    // §Which reads route).
    static RouteArm armFor(const RouteRequest &request);

    // Chooses the pool. Replicas are tried starting at `startIndex` (callers rotate it to spread
    // load); the first one whose proof satisfies the arm serves. When none does, the writer serves
    // and the reason is the one reported by the replica at `startIndex`.
    static RouteDecision decide(const RouteRequest &request, std::int64_t budgetMs,
                                std::int64_t nowMs, std::span<const ReplicaProof> replicas,
                                std::size_t startIndex = 0);

    // Failure rules once a replica was chosen.
    static OutcomeRule onOutcome(ReadPath path, ReplicaOutcome outcome);

    // Post-verification of a thread page (oldest first) served by a replica: only a full page whose
    // newest row is at or below the wall is provably complete; anything else re-runs on the writer.
    static OutcomeRule verifyThreadPage(std::size_t servedRows, std::optional<int> limit,
                                        std::optional<std::int64_t> newestServedCreatedAt,
                                        std::int64_t fenceWallSec);
};

} // namespace buzz::relay
