#pragma once

#include "relay/model/QueryResult.h"
#include "relay/model/ReadPath.h"
#include "relay/model/RequestContext.h"
#include "relay/routing/ReadRouter.h"
#include "relay/search/ExactPairHydrator.h"
#include "relay/search/SearchPool.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace buzz::relay::store {
class Store;
}

namespace buzz::relay::search {

// NIP-50 search (docs/buzz-protocol.md §Search): if any filter has `search`, the whole request is a
// search. Per filter: relevance-ordered hits from the FTS index (search pool, prefers a replica),
// scoped to the caller's community and readable channels (+ global events), then ONE bounded
// exact-pair hydration per ≤500 hits, then every row is re-matched against its filter and
// re-authorised. Results keep relevance order, de-duplicated across filters; a search is never
// live.
class SearchService
{
public:
    // HTTP: one page of min(limit or 100, 500). WS: min(limit or 10 000, 10 000) results from at
    // most 10 pages of 100 hits.
    static constexpr int kHttpDefaultPage = 100;
    static constexpr int kHttpMaxPage = 500;
    static constexpr int kWsMaxLimit = 10'000;
    static constexpr int kWsMaxHits = 1'000;

    SearchService(store::Store &database, routing::ReadRouter &router);

    static bool isSearch(const std::vector<nostr::Filter> &filters);
    // Profile-name search: the filter asks for kind 0 only.
    static bool isProfileSearch(const nostr::Filter &filter);
    // The hydration route label of a search filter on this transport.
    static ReadPath hydrationPath(const nostr::Filter &filter, bool webSocket);

    // `path` is the caller's read path (BridgeQuery or ReqHistorical): it decides HTTP vs WS rules.
    QueryResult search(const std::vector<nostr::Filter> &filters, const RequestContext &context,
                       ReadPath path);

    void setReplicas(replication::ReplicaTier *replicas) { m_pool.setReplicas(replicas); }
    ExactPairHydrator &hydrator() { return m_hydrator; }
    SearchPool &pool() { return m_pool; }

    // Prometheus lines: searches, hits and hydrated results, full-text reads by pool.
    std::string metricsText() const;

private:
    struct Access
    {
        bool ok = false;
        std::unordered_set<std::string> channels; // readable channels of the caller
    };
    Access readableChannels(const RequestContext &context);

    store::Store &m_database; // its backend words the full-text query (Store::textMatch)
    routing::ReadRouter &m_router;
    SearchPool m_pool;
    ExactPairHydrator m_hydrator;
    std::atomic<std::uint64_t> m_searches {0};
    std::atomic<std::uint64_t> m_hits {0};
    std::atomic<std::uint64_t> m_results {0};
    std::atomic<std::uint64_t> m_dropped {0}; // hydrated but refused by the re-match/re-auth
};

} // namespace buzz::relay::search
