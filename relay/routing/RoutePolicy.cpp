#include "relay/routing/RoutePolicy.h"

#include <algorithm>

namespace buzz::relay {

namespace {

struct Verdict
{
    bool servable = false;
    RouteReason reason = RouteReason::Disabled;
};

Verdict boundedVerdict(const ReplicaProof &proof, std::int64_t ageMs, std::int64_t budgetMs,
                       std::int64_t livePosition)
{
    if (ageMs > budgetMs)
        return {false, RouteReason::Stale};
    // The time bound says how old the replica's view is; a subscription also needs it to hold
    // what can no longer reach it live: every commit of its scopes before it went live. Without
    // that, a revision saved just before a REQ is neither in its history nor delivered live.
    if (proof.position < livePosition)
        return {false, RouteReason::NotCaughtUp};
    return {true, RouteReason::Fresh};
}

// Content proof: every channel row with created_at <= wall is on the replica, whenever it was
// committed (the writer refuses rows older than commit time - 960 s, and the wall sits 965 s before
// the oldest write that could still commit). An entry past the staleness bound proves nothing.
Verdict coveredVerdict(const ReplicaProof &proof, std::int64_t ageMs,
                       std::optional<std::int64_t> upper)
{
    if (ageMs > kFenceStalenessMs)
        return {false, RouteReason::Stale};
    if (!upper || *upper > proof.fenceWallSec)
        return {false, RouteReason::BeyondWall};
    return {true, RouteReason::Covered};
}

Verdict judge(const ReplicaProof &proof, RouteArm arm, const RouteRequest &request,
              std::int64_t budgetMs, std::int64_t nowMs)
{
    switch (proof.state) {
    case ReplicaProof::State::Uninitialized:
        return {false, RouteReason::Uninitialized};
    case ReplicaProof::State::TokenBehind:
        return {false, RouteReason::ReaderTokenBehind};
    case ReplicaProof::State::ValidationError:
        return {false, RouteReason::ReaderValidationError};
    case ReplicaProof::State::Proved:
        break;
    }
    // A clock moved backwards must not make a proof look younger than "just now".
    const std::int64_t ageMs = std::max<std::int64_t>(0, nowMs - proof.entryCommittedAtMs);
    const ReadShape &shape = request.shape;
    switch (arm) {
    case RouteArm::Bounded:
        return boundedVerdict(proof, ageMs, budgetMs, request.livePosition);
    case RouteArm::Covered:
        return coveredVerdict(proof, ageMs, shape.until);
    case RouteArm::BoundedOrCovered: {
        const Verdict covered = coveredVerdict(proof, ageMs, shape.until);
        return covered.servable ? covered
                                : boundedVerdict(proof, ageMs, budgetMs, request.livePosition);
    }
    case RouteArm::CoveredPostVerified:
        if (ageMs > kFenceStalenessMs)
            return {false, RouteReason::Stale};
        // A page that starts beyond the wall can never pass post-verification: skip the round trip.
        if (shape.since && *shape.since > proof.fenceWallSec)
            return {false, RouteReason::BeyondWall};
        return {true, RouteReason::Covered};
    }
    return {false, RouteReason::Disabled};
}

bool needsContentProof(RouteArm arm)
{
    return arm == RouteArm::Covered || arm == RouteArm::CoveredPostVerified;
}

} // namespace

RouteArm RoutePolicy::armFor(const RouteRequest &request)
{
    const ReadShape &shape = request.shape;
    switch (request.path) {
    case ReadPath::BridgeCount:
    case ReadPath::CountReq:
    case ReadPath::BridgeCountFallback:
    case ReadPath::CountReqFallback:
    case ReadPath::BridgeSearchHydrate:
    case ReadPath::ReqSearchHydrate:
    case ReadPath::ProfileSearchHydrate:
        // A count cannot absorb a stale deleted row, and hydration has no channel pin: time bound
        // only.
        return RouteArm::Bounded;
    case ReadPath::BridgeThreadAux:
        return RouteArm::CoveredPostVerified;
    case ReadPath::BridgeQuery:
    case ReadPath::ReqHistorical:
        break;
    }
    if (shape.threadPage)
        return RouteArm::CoveredPostVerified;
    // A later page of a keyset walk must be complete below its cursor; a time bound cannot promise
    // that when commits arrive out of created_at order:
    // docs/architecture.md §The out-of-order commit counterexample.
    if (shape.keysetContinuation)
        return RouteArm::Covered;
    if (shape.pinsOneChannel && shape.until)
        return RouteArm::BoundedOrCovered;
    return RouteArm::Bounded;
}

RouteDecision RoutePolicy::decide(const RouteRequest &request, std::int64_t budgetMs,
                                  std::int64_t nowMs, std::span<const ReplicaProof> replicas,
                                  std::size_t startIndex)
{
    RouteDecision decision;
    decision.arm = armFor(request);
    if (budgetMs <= 0 || replicas.empty()) {
        decision.reason = RouteReason::Disabled;
        return decision;
    }
    if (request.strong) {
        decision.reason = RouteReason::Strong;
        return decision;
    }
    if (request.shape.touchesChannelMetadata) {
        decision.reason = RouteReason::ChannelMetadata;
        return decision;
    }
    if (needsContentProof(decision.arm) && !request.shape.channelRowsOnly) {
        decision.reason = RouteReason::NotChannelScoped;
        return decision;
    }
    const RouteArm arm =
        (decision.arm == RouteArm::BoundedOrCovered && !request.shape.channelRowsOnly)
        ? RouteArm::Bounded
        : decision.arm;
    const std::size_t count = replicas.size();
    for (std::size_t step = 0; step < count; ++step) {
        const std::size_t index = (startIndex + step) % count;
        const Verdict verdict = judge(replicas[index], arm, request, budgetMs, nowMs);
        if (verdict.servable) {
            decision.replica = static_cast<int>(index);
            decision.reason = verdict.reason;
            decision.fenceWallSec = replicas[index].fenceWallSec;
            return decision;
        }
        if (step == 0)
            decision.reason = verdict.reason;
    }
    return decision;
}

OutcomeRule RoutePolicy::onOutcome(ReadPath path, ReplicaOutcome outcome)
{
    switch (outcome) {
    case ReplicaOutcome::Ok:
        return {OutcomeAction::Serve, RouteReason::Fresh};
    case ReplicaOutcome::Error:
        return {OutcomeAction::RerunOnWriter, RouteReason::ReplicaError};
    case ReplicaOutcome::StatementTimeout:
        // The writer would run the same slow statement: surface instead of doubling the load.
        return {OutcomeAction::SurfaceTimeout, RouteReason::StatementCancelled};
    case ReplicaOutcome::AcquireTimeout:
        // Subscription backfill is the bulk reader: pushing it onto the writer when readers are
        // saturated would move the overload, so the client is told to retry instead.
        if (path == ReadPath::ReqHistorical)
            return {OutcomeAction::RejectRetryable, RouteReason::ReaderAcquireTimeout};
        return {OutcomeAction::RerunOnWriter, RouteReason::ReaderAcquireTimeout};
    case ReplicaOutcome::MissingRoot:
        return {OutcomeAction::RerunOnWriter, RouteReason::MissingRoot};
    }
    return {OutcomeAction::RerunOnWriter, RouteReason::ReplicaError};
}

OutcomeRule RoutePolicy::verifyThreadPage(std::size_t servedRows, std::optional<int> limit,
                                          std::optional<std::int64_t> newestServedCreatedAt,
                                          std::int64_t fenceWallSec)
{
    if (!limit || *limit <= 0 || servedRows < static_cast<std::size_t>(*limit)
        || !newestServedCreatedAt)
        return {OutcomeAction::RerunOnWriter, RouteReason::ShortPage};
    if (*newestServedCreatedAt > fenceWallSec)
        return {OutcomeAction::RerunOnWriter, RouteReason::BeyondWall};
    return {OutcomeAction::Serve, RouteReason::Covered};
}

} // namespace buzz::relay
