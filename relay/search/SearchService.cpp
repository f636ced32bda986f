#include "relay/search/SearchService.h"

#include "relay/query/AccessPolicy.h"
#include "relay/search/ExactPairLookup.h"
#include "relay/store/EventLookup.h"
#include "relay/store/EventQuery.h"
#include "relay/store/ReadConnection.h"
#include "relay/store/Store.h"

#include <QLoggingCategory>

#include <algorithm>
#include <unordered_map>

Q_LOGGING_CATEGORY(lcSearch, "buzz.relay.search")

namespace buzz::relay::search {

namespace {
QueryResult failure(QueryResult::Status status, std::string message)
{
    QueryResult result;
    result.status = status;
    result.message = std::move(message);
    return result;
}

std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

bool isWebSocket(ReadPath path, const RequestContext &context)
{
    return path == ReadPath::ReqHistorical
        || (path != ReadPath::BridgeQuery && context.transport == Transport::WebSocket);
}

// How many results a filter may produce and how many hits are asked of the index for it.
int resultLimit(const nostr::Filter &filter, bool webSocket)
{
    if (webSocket)
        return std::clamp(filter.limit.value_or(SearchService::kWsMaxLimit), 0,
                          SearchService::kWsMaxLimit);
    return std::clamp(filter.limit.value_or(SearchService::kHttpDefaultPage), 0,
                      SearchService::kHttpMaxPage);
}

QueryResult::Status statusOf(HydrationResult::Status status)
{
    switch (status) {
    case HydrationResult::Status::TimedOut:
        return QueryResult::Status::TimedOut;
    case HydrationResult::Status::Retryable:
        return QueryResult::Status::Retryable;
    case HydrationResult::Status::Ok:
        return QueryResult::Status::Ok;
    case HydrationResult::Status::Invalid:
    case HydrationResult::Status::Internal:
        break;
    }
    return QueryResult::Status::Internal;
}
} // namespace

SearchService::SearchService(store::Store &database, routing::ReadRouter &router)
    : m_database(database)
    , m_router(router)
    , m_pool(database)
    , m_hydrator(router)
{ }

bool SearchService::isSearch(const std::vector<nostr::Filter> &filters)
{
    return std::any_of(filters.begin(), filters.end(),
                       [](const nostr::Filter &filter) { return filter.search.has_value(); });
}

bool SearchService::isProfileSearch(const nostr::Filter &filter)
{
    return filter.kinds && !filter.kinds->empty()
        && std::all_of(filter.kinds->begin(), filter.kinds->end(), [](int k) { return k == 0; });
}

ReadPath SearchService::hydrationPath(const nostr::Filter &filter, bool webSocket)
{
    if (isProfileSearch(filter))
        return ReadPath::ProfileSearchHydrate;
    return webSocket ? ReadPath::ReqSearchHydrate : ReadPath::BridgeSearchHydrate;
}

SearchService::Access SearchService::readableChannels(const RequestContext &context)
{
    // Who may read what gates what a search reveals: always asked of the writer.
    ReadRequest request;
    request.mustUseWriter = true;
    request.community = context.community;
    Access access;
    routing::ReadLease lease = m_router.route(request);
    if (!lease)
        return access;
    const auto channels =
        lease.connection().lookup().readableChannels(context.community, context.pubkey);
    if (!channels)
        return access;
    access.channels.insert(channels->begin(), channels->end());
    access.ok = true;
    return access;
}

QueryResult SearchService::search(const std::vector<nostr::Filter> &filters,
                                  const RequestContext &context, ReadPath path)
{
    m_searches.fetch_add(1, std::memory_order_relaxed);
    const bool webSocket = isWebSocket(path, context);
    if (!webSocket) {
        // The HTTP bridge applies the sensitive-kind gates to every filter first
        // (docs/buzz-protocol.md §POST /query step 1).
        for (const auto &filter : filters) {
            if (!query::AccessPolicy::pGateAllows(filter, context.pubkey))
                return failure(QueryResult::Status::Forbidden, query::AccessPolicy::kHttpPGate);
        }
        for (const auto &filter : filters) {
            if (!query::AccessPolicy::engramGateAllows(filter, context.pubkey))
                return failure(QueryResult::Status::Forbidden, query::AccessPolicy::kEngramGate);
        }
    }
    const Access access = readableChannels(context);
    if (!access.ok)
        return failure(QueryResult::Status::Internal, "internal server error");

    QueryResult result;
    result.route = "none";
    result.routeReason = "no_hits";
    std::unordered_set<std::string> seen;
    for (const nostr::Filter &filter : filters) {
        if (!filter.search) // a search request ignores its non-search filters (same section)
            continue;
        const int limit = resultLimit(filter, webSocket);
        // The backend's form of the words (FTS5 MATCH, to_tsquery()): the same words either way.
        const auto match = m_database.textMatch(*filter.search);
        if (!match || limit == 0 || (filter.kinds && filter.kinds->empty()))
            continue;

        store::TextQuery query;
        query.match = *match;
        query.community = context.community;
        query.kinds = filter.kinds;
        query.authors = filter.authors;
        query.since = filter.since;
        query.until = filter.until;
        query.limit = webSocket ? std::min(limit, kWsMaxHits) : limit;
        if (const auto h = filter.tags.find('h'); h != filter.tags.end()) {
            query.includeGlobal = false;
            for (const auto &value : h->second) {
                std::string channel = lowered(value);
                if (access.channels.count(channel)
                    && std::find(query.channels.begin(), query.channels.end(), channel)
                        == query.channels.end())
                    query.channels.push_back(std::move(channel));
            }
            if (query.channels.empty())
                continue; // every listed channel is inaccessible: the filter is skipped
        } else {
            query.channels.assign(access.channels.begin(), access.channels.end());
        }

        std::vector<EventPair> hits;
        const SearchPool::Result ran = m_pool.run([&](store::ReadConnection &connection) {
            hits.clear(); // a failed replica read leaves part of its hits
            return connection.searchText(query, hits);
        });
        if (ran.outcome == SearchPool::Outcome::TimedOut)
            return failure(QueryResult::Status::TimedOut, "query timed out");
        if (ran.outcome == SearchPool::Outcome::Failed) {
            qCWarning(lcSearch) << "full-text query failed on" << ran.pool.c_str();
            return failure(QueryResult::Status::Internal, "internal server error");
        }
        m_hits.fetch_add(hits.size(), std::memory_order_relaxed);

        const ReadPath hydrate = hydrationPath(filter, webSocket);
        int produced = 0;
        for (std::size_t at = 0; at < hits.size() && produced < limit;
             at += ExactPairLookup::kMaxPairs) {
            const std::size_t count = std::min(ExactPairLookup::kMaxPairs, hits.size() - at);
            HydrationResult rows = m_hydrator.hydrateExactPairs(
                context.community, std::span(hits).subspan(at, count), hydrate);
            if (rows.status != HydrationResult::Status::Ok) {
                QueryResult failed = failure(statusOf(rows.status), rows.message);
                failed.route = rows.route;
                failed.routeReason = rows.routeReason;
                return failed;
            }
            result.route = rows.route;
            result.routeReason = rows.routeReason;
            result.replica = rows.replica;
            result.replicaDataAgeMs = rows.replicaDataAgeMs;
            for (StoredEvent &stored : rows.events) {
                // The index is only a pointer: the canonical row must still match the filter and
                // still be readable by the caller now.
                const bool readable = stored.community == context.community
                    && (!stored.channel || access.channels.count(*stored.channel));
                if (!readable || !filter.matches(stored.event)) {
                    m_dropped.fetch_add(1, std::memory_order_relaxed);
                    continue;
                }
                if (!seen.insert(stored.event.id).second)
                    continue;
                result.events.push_back(std::move(stored));
                if (++produced >= limit)
                    break;
            }
        }
    }
    m_results.fetch_add(result.events.size(), std::memory_order_relaxed);
    return result;
}

std::string SearchService::metricsText() const
{
    std::string out;
    out += "# HELP buzz_search_requests_total NIP-50 search requests.\n"
           "# TYPE buzz_search_requests_total counter\nbuzz_search_requests_total "
        + std::to_string(m_searches.load()) + "\n";
    out += "# HELP buzz_search_hits_total Full-text index hits before hydration.\n"
           "# TYPE buzz_search_hits_total counter\nbuzz_search_hits_total "
        + std::to_string(m_hits.load()) + "\n";
    out += "# HELP buzz_search_results_total Hydrated, re-matched search results served.\n"
           "# TYPE buzz_search_results_total counter\nbuzz_search_results_total "
        + std::to_string(m_results.load()) + "\n";
    out += "# HELP buzz_search_dropped_total Hydrated rows refused by the filter re-match or "
           "channel re-authorisation.\n# TYPE buzz_search_dropped_total counter\n"
           "buzz_search_dropped_total "
        + std::to_string(m_dropped.load()) + "\n";
    out += "# HELP buzz_search_fts_reads_total Full-text queries by serving pool.\n"
           "# TYPE buzz_search_fts_reads_total counter\n";
    out += "buzz_search_fts_reads_total{pool=\"replica\"} " + std::to_string(m_pool.replicaReads())
        + "\n";
    out += "buzz_search_fts_reads_total{pool=\"writer\"} " + std::to_string(m_pool.writerReads())
        + "\n";
    out += "buzz_search_fts_reads_total{pool=\"replica_fallback\"} "
        + std::to_string(m_pool.replicaFallbacks()) + "\n";
    return out;
}

} // namespace buzz::relay::search
