#pragma once

#include "relay/model/ReadPath.h"
#include "relay/model/StoredEvent.h"
#include "relay/routing/ReadRouter.h"
#include "relay/search/EventPair.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace buzz::relay::search {

struct HydrationResult
{
    enum class Status {
        Ok,
        Invalid, // the batch was refused before any connection was taken (message says why)
        TimedOut, // the replica statement timed out (surfaced, never re-run)
        Retryable,
        Internal,
    };
    Status status = Status::Ok;
    std::string message;
    // Canonical rows found, each at most once, in the caller's pair order. Missing, deleted,
    // wrong-community and wrong-timestamp pairs are simply absent: finding a row proves only that
    // row, never that the batch is complete.
    std::vector<StoredEvent> events;
    std::string route = "none"; // "writer" | "replica" | "none" (nothing was read)
    std::string routeReason;
    std::string replica; // which replica served, as QueryResult::replica ("" on the writer)
    std::int64_t replicaDataAgeMs = -1;
};

// The one bounded hydration of search hits, shared by WS search, HTTP search and profile-name
// search. Routed on the Bounded arm under the caller's path label (bridge_search_hydrate,
// req_search_hydrate, profile_search_hydrate): a replica proved fresh within the budget serves it,
// a row the replica does not have is skipped (never fetched elsewhere, never invented), a replica
// error re-runs the lookup on the writer, a replica statement timeout is surfaced.
class ExactPairHydrator
{
public:
    explicit ExactPairHydrator(routing::ReadRouter &router)
        : m_router(router)
    { }

    // At most ExactPairLookup::kMaxPairs pairs, validated before a connection is taken.
    HydrationResult hydrateExactPairs(const std::string &community,
                                      std::span<const EventPair> pairs, ReadPath caller);
    // The ID-only lookup for callers without timestamps (same bound, same routing).
    HydrationResult hydrateIds(const std::string &community, std::span<const std::string> ids,
                               ReadPath caller);

private:
    template<class Lookup>
    HydrationResult routed(const std::string &community, ReadPath caller, Lookup lookup);

    routing::ReadRouter &m_router;
};

} // namespace buzz::relay::search
