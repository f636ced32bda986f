#pragma once

// Vocabulary of a read-routing decision. The string forms are metric labels and the value of the
// X-Buzz-Read-Route header, so they are part of the relay's observable contract.

#include "relay/model/ReadPath.h"

#include <cstdint>
#include <string_view>

namespace buzz::relay {

// How a replica must prove it may serve a read (docs/architecture.md §Route arms).
enum class RouteArm {
    Bounded, // proved heartbeat age <= budget: bounds time, valid for any query shape
    Covered, // page upper bound <= proved fence wall: bounds content, channel rows only
    CoveredPostVerified, // thread pages: served rows are checked against the wall afterwards
    BoundedOrCovered, // covered first, else bounded (one channel pinned + until, no keyset cursor)
};

enum class RouteReason {
    Fresh, // replica, bounded arm held
    Covered, // replica, covered arm held
    Disabled, // budget 0 or no replica: routing is off
    Uninitialized, // replica has replayed no heartbeat yet
    Stale, // proved entry older than the budget (or than the 30 s fence staleness)
    ReaderAcquireTimeout, // no reader connection within the bounded wait
    ReaderValidationError, // heartbeat epoch mismatch (writer restored / token regressed)
    ReaderTokenBehind, // replica's token is older than anything the ring retains
    ReplicaError, // the replica failed the statement; re-run on the writer
    StatementCancelled, // statement timeout on the replica; surfaced, never re-run
    MissingRoot, // thread root not on the replica
    Strong, // client asked for "consistency":"strong"
    ChannelMetadata, // the read may touch kind 39000 (authority data)
    NotChannelScoped, // a content proof was needed but the rows are not all channel rows
    BeyondWall, // page upper bound / served tail is newer than the proved fence wall
    ShortPage, // a short thread page is a candidate end; verified on the writer
    NotCaughtUp, // a subscription's history: the replica misses commits made before it went live
};

// What the read finally did, as counted in buzz_db_route_decision_total.
enum class RouteDecisionLabel { Writer, Replica, Rejected };

std::string_view toLabel(RouteArm arm);
std::string_view toLabel(RouteReason reason);
std::string_view toLabel(RouteDecisionLabel decision);
std::string_view toLabel(ReadPath path);

// A heartbeat entry older than this proves nothing (FENCE_STALENESS); it is also the documented
// bound on how long a soft-deleted row may still be served by a covered read.
inline constexpr std::int64_t kFenceStalenessMs = 30'000;
// The writer refuses channel rows older than commit time minus this (> the ±900 s ingest window).
inline constexpr std::int64_t kCreatedAtFloorSec = 960;
// Extra slack subtracted from the fence wall for clock granularity between sample and commit.
inline constexpr std::int64_t kFenceMarginSec = 5;
// Replica read budgets (BUZZ_REPLICA_READ_MAX_AGE_MS) above this are clamped.
inline constexpr std::int64_t kMaxReadBudgetMs = 30'000;

// A budget from its raw setting: 0 = off (every read on the writer), clamped to kMaxReadBudgetMs.
// Negative settings are refused by whoever parses them, before they get here.
inline std::int64_t clampReadBudgetMs(std::int64_t budgetMs)
{
    return budgetMs < 0 ? 0 : (budgetMs > kMaxReadBudgetMs ? kMaxReadBudgetMs : budgetMs);
}

} // namespace buzz::relay
