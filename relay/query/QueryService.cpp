#include "relay/query/QueryService.h"

#include "net/nostr/Kinds.h"
#include "relay/query/AccessPolicy.h"
#include "relay/query/EventMatcher.h"
#include "relay/store/EventLookup.h"
#include "relay/store/EventQuery.h"
#include "relay/store/ReadConnection.h"

#include <QLoggingCategory>

#include <algorithm>
#include <unordered_set>

Q_LOGGING_CATEGORY(lcQuery, "buzz.relay.query")

namespace buzz::relay::query {

namespace {
std::string lowered(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

store::EventQuery::Mode pageMode(const nostr::Filter &filter)
{
    const auto e = filter.tags.find('e');
    if (filter.depthLimit && e != filter.tags.end() && e->second.size() == 1)
        return store::EventQuery::Mode::Thread;
    return store::EventQuery::Mode::Page;
}

// The filter's `#h` values the viewer may read, lower-cased as channels are stored: from the
// writer's answer when the rows may come from a replica, else asked on the (writer) lease.
std::vector<std::string> accessibleChannels(store::EventLookup &reader, const nostr::Filter &filter,
                                            const RequestContext &context,
                                            const QueryService::WriterAccess *access)
{
    std::vector<std::string> channels;
    const auto h = filter.tags.find('h');
    if (h == filter.tags.end())
        return channels;
    for (const auto &value : h->second) {
        std::string channel = lowered(value);
        if (std::find(channels.begin(), channels.end(), channel) != channels.end())
            continue;
        const bool readable = access ? access->readable.count(channel) > 0
                                     : reader.canRead(context.community, channel, context.pubkey);
        if (readable)
            channels.push_back(std::move(channel));
    }
    return channels;
}

QueryResult failure(QueryResult::Status status, std::string message)
{
    QueryResult result;
    result.status = status;
    result.message = std::move(message);
    return result;
}

// A read the router refused before it ran: surfaced, never re-run here.
std::optional<QueryResult> refusalResult(const routing::ReadLease &lease)
{
    QueryResult result;
    switch (lease.refusal()) {
    case routing::ReadLease::Refusal::None:
        return std::nullopt;
    case routing::ReadLease::Refusal::TimedOut:
        result = failure(QueryResult::Status::TimedOut, "query timed out");
        break;
    case routing::ReadLease::Refusal::Retryable:
        result = failure(QueryResult::Status::Retryable,
                         "retryable: read replicas are busy, try again shortly");
        break;
    }
    result.route = lease.route();
    result.routeReason = lease.reason();
    return result;
}
} // namespace

bool QueryService::isHttpPath(ReadPath path)
{
    switch (path) {
    case ReadPath::BridgeQuery:
    case ReadPath::BridgeCount:
    case ReadPath::BridgeCountFallback:
    case ReadPath::BridgeThreadAux:
        return true;
    default:
        return false;
    }
}

std::string QueryService::httpGateFailure(const std::vector<nostr::Filter> &filters,
                                          const std::string &viewer)
{
    for (const auto &filter : filters) {
        if (!AccessPolicy::pGateAllows(filter, viewer))
            return AccessPolicy::kHttpPGate;
    }
    for (const auto &filter : filters) {
        if (!AccessPolicy::engramGateAllows(filter, viewer))
            return AccessPolicy::kEngramGate;
    }
    return {};
}

ReadRequest QueryService::readRequestFor(const std::vector<nostr::Filter> &filters, ReadPath path)
{
    ReadRequest request;
    request.path = path;
    request.strong =
        std::any_of(filters.begin(), filters.end(), [](const auto &f) { return f.isStrong(); });
    // Channel metadata (39000) gates what clients believe about a channel: always the writer.
    request.mustUseWriter = std::any_of(filters.begin(), filters.end(), [](const auto &f) {
        return !f.kinds
            || std::find(f.kinds->begin(), f.kinds->end(), nostr::kinds::kGroupMetadata)
            != f.kinds->end();
    });
    request.channel = AccessPolicy::subscriptionChannel(filters);
    if (filters.size() == 1)
        request.until = filters.front().until;
    return request;
}

std::vector<ReadRequest::LiveScope>
QueryService::liveScopesFor(const std::vector<nostr::Filter> &filters, ReadPath path,
                            const WriterAccess *access)
{
    std::vector<ReadRequest::LiveScope> scopes;
    // Without the writer's access list the rows come from the writer anyway.
    if (path != ReadPath::ReqHistorical || !access)
        return scopes;
    for (const auto &filter : filters) {
        ReadRequest::LiveScope &scope = scopes.emplace_back();
        scope.kinds = filter.kinds;
        const auto h = filter.tags.find('h');
        if (h != filter.tags.end()) {
            for (const auto &value : h->second)
                scope.channels.push_back(lowered(value));
            continue;
        }
        // Without #h: rows outside channels and those of every channel the viewer reads.
        scope.outsideChannels = true;
        scope.channels = access->channels;
    }
    return scopes;
}

template<class ReadAll>
QueryResult QueryService::runRouted(const std::vector<nostr::Filter> &filters,
                                    const RequestContext &context, ReadPath path, ReadAll readAll,
                                    std::vector<ReadRequest::LiveScope> liveScopes)
{
    if (isHttpPath(path)) {
        if (auto gate = httpGateFailure(filters, context.pubkey); !gate.empty())
            return failure(QueryResult::Status::Forbidden, gate);
    }
    ReadRequest request = readRequestFor(filters, path);
    request.filters = &filters;
    request.community = context.community;
    request.liveScopes = std::move(liveScopes);
    // A replica read may be settled afterwards into one re-run on the writer.
    for (;;) {
        auto lease = m_router.route(request);
        if (auto refused = refusalResult(lease))
            return *refused;
        if (!lease)
            return failure(QueryResult::Status::Internal, "internal server error");
        QueryResult result;
        result.route = lease.route();
        result.routeReason = lease.reason();
        result.replica = lease.replica();
        result.replicaDataAgeMs = lease.dataAgeMs();
        ReadAttempt attempt;
        if (!readAll(lease, result, attempt))
            return failure(QueryResult::Status::Internal, "internal server error");
        const auto settlement = lease.settle(attempt);
        if (settlement.action == ReadSettlement::Action::RerunOnWriter) {
            request.forceWriterReason = settlement.reason;
            continue;
        }
        if (settlement.action == ReadSettlement::Action::TimedOut)
            return failure(QueryResult::Status::TimedOut, "query timed out");
        if (!attempt.ok)
            return failure(QueryResult::Status::Internal, "internal server error");
        return result;
    }
}

std::optional<QueryService::WriterAccess>
QueryService::writerAccess(const std::vector<nostr::Filter> &filters, ReadPath path,
                           const RequestContext &context, bool &failed)
{
    failed = false;
    const ReadRequest routed = readRequestFor(filters, path);
    if (routed.strong || routed.mustUseWriter || m_router.servesOnlyFromWriter())
        return std::nullopt; // the rows come from the writer: access is read on the same lease
    // Channel access is a permission decision: always the writer's, even when a lagging replica
    // serves the rows (a removed member must not read what the replica has not yet forgotten).
    ReadRequest request;
    request.mustUseWriter = true;
    request.community = context.community;
    routing::ReadLease lease = m_router.route(request);
    std::optional<std::vector<std::string>> channels;
    if (lease)
        channels = lease.connection().lookup().readableChannels(context.community, context.pubkey);
    if (!channels) {
        failed = true;
        return std::nullopt;
    }
    WriterAccess access;
    access.readable.insert(channels->begin(), channels->end());
    access.channels = std::move(*channels);
    return access;
}

QueryResult QueryService::query(const std::vector<nostr::Filter> &filters,
                                const RequestContext &context, ReadPath path)
{
    const bool dedupe = !isHttpPath(path);
    bool tooLarge = false;
    bool budgetFull = false;
    bool accessFailed = false;
    const auto access = writerAccess(filters, path, context, accessFailed);
    if (accessFailed)
        return failure(QueryResult::Status::Internal, "internal server error");
    const WriterAccess *writer = access ? &*access : nullptr;
    QueryResult routed = runRouted(
        filters, context, path,
        [&](routing::ReadLease &lease, QueryResult &result, ReadAttempt &attempt) {
            std::unordered_set<std::string> seen;
            std::size_t bytes = 0;
            tooLarge = false;
            budgetFull = false;
            if (m_budget)
                result.hold = std::make_shared<OutboundBudget::Hold>(m_budget);
            // One row the filter's statement returned; false once the answer is too large.
            const auto keep = [&](const nostr::Filter &filter, ReadAttempt::Page &page,
                                  StoredEvent &&stored) {
                ++page.rows;
                page.newestCreatedAt = std::max(
                    page.newestCreatedAt.value_or(stored.event.createdAt), stored.event.createdAt);
                if (!EventMatcher::matches(filter, stored))
                    return true;
                if (dedupe && !seen.insert(stored.event.id).second)
                    return true;
                bytes += stored.json.size();
                if (bytes > kMaxResponseBytes) {
                    tooLarge = true;
                    return false;
                }
                // The relay-wide bound (relay/README.md "Limits"): the JSON and the parsed event.
                if (result.hold && !result.hold->take(2 * stored.json.size())) {
                    budgetFull = true;
                    return false;
                }
                result.events.push_back(std::move(stored));
                return true;
            };
            store::ReadConnection &connection = lease.connection();
            store::ReadConnection::RowSink sink;
            if (result.hold) {
                // The backend may hold rows before handing them over (libpq keeps a whole
                // result): that counts against the relay-wide bound too while they are read.
                sink.hold = [&](std::size_t held) {
                    if (result.hold->take(held))
                        return true;
                    budgetFull = true;
                    return false;
                };
                sink.release = [&](std::size_t held) {
                    result.hold->give(held);
                };
            }
            // The filter and page being read (two pointers: the sink needs no allocation).
            std::pair<const nostr::Filter *, ReadAttempt::Page *> reading;
            sink.row = [&keep, &reading](StoredEvent &&stored) {
                return keep(*reading.first, *reading.second, std::move(stored));
            };
            for (const auto &filter : filters) {
                auto &page = attempt.pages.emplace_back();
                reading = {&filter, &page};
                const std::vector<std::string> channels =
                    accessibleChannels(connection.lookup(), filter, context, writer);
                const store::EventQuery query {
                    filter,   context.community, context.pubkey,
                    channels, pageMode(filter),  writer ? &writer->channels : nullptr};
                bool stopped = false;
                const store::ReadStatus status = connection.selectEvents(query, sink, stopped);
                if (stopped)
                    return true;
                if (!status.ok) {
                    qCWarning(lcQuery) << "query failed, code" << status.code;
                    attempt.ok = false;
                    attempt.timedOut = status.timedOut;
                    break;
                }
            }
            return true;
        },
        liveScopesFor(filters, path, writer));
    if ((tooLarge || budgetFull) && routed.status == QueryResult::Status::Ok) {
        QueryResult refused = tooLarge
            ? failure(QueryResult::Status::BadRequest, kResponseTooLarge)
            : failure(QueryResult::Status::Retryable, OutboundBudget::kFullMessage);
        refused.route = routed.route;
        refused.routeReason = routed.routeReason;
        return refused;
    }
    return routed;
}

QueryResult QueryService::count(const std::vector<nostr::Filter> &filters,
                                const RequestContext &context, ReadPath path)
{
    bool accessFailed = false;
    const auto access = writerAccess(filters, path, context, accessFailed);
    if (accessFailed)
        return failure(QueryResult::Status::Internal, "internal server error");
    const WriterAccess *writer = access ? &*access : nullptr;
    return runRouted(filters, context, path,
                     [&](routing::ReadLease &lease, QueryResult &result, ReadAttempt &attempt) {
                         store::ReadConnection &connection = lease.connection();
                         for (const auto &filter : filters) {
                             // Summed across filters, not de-duplicated (docs/buzz-protocol.md
                             // §POST /count).
                             const std::vector<std::string> channels =
                                 accessibleChannels(connection.lookup(), filter, context, writer);
                             const store::EventQuery query {filter,
                                                            context.community,
                                                            context.pubkey,
                                                            channels,
                                                            store::EventQuery::Mode::Count,
                                                            writer ? &writer->channels : nullptr};
                             const store::ReadStatus status =
                                 connection.countEvents(query, result.count);
                             if (!status.ok) {
                                 attempt.ok = false;
                                 attempt.timedOut = status.timedOut;
                                 break;
                             }
                         }
                         return true;
                     });
}

AdmissionResult QueryService::admit(const std::vector<nostr::Filter> &filters,
                                    const RequestContext &context)
{
    const bool anySearch = std::any_of(filters.begin(), filters.end(),
                                       [](const auto &f) { return f.search.has_value(); });
    const bool allSearch = std::all_of(filters.begin(), filters.end(),
                                       [](const auto &f) { return f.search.has_value(); });
    if (anySearch && !allSearch)
        return std::string("error: mixed search and non-search filters not supported");
    if (const auto channel = AccessPolicy::subscriptionChannel(filters)) {
        if (!canRead(context.community, lowered(*channel), context.pubkey))
            return std::string("restricted: not a channel member");
        return std::nullopt;
    }
    // Global subscriptions: the sensitive-kind gates (on WS for global subs only,
    // docs/buzz-protocol.md §Sensitive kinds).
    for (const auto &filter : filters) {
        if (!AccessPolicy::pGateAllows(filter, context.pubkey))
            return std::string(AccessPolicy::kWsPGate);
    }
    for (const auto &filter : filters) {
        if (!AccessPolicy::engramGateAllows(filter, context.pubkey))
            return std::string(AccessPolicy::kEngramGate);
    }
    return std::nullopt;
}

bool QueryService::canRead(const std::string &community, const std::string &channel,
                           const std::string &pubkey)
{
    ReadRequest request;
    request.mustUseWriter = true; // permission reads gate live fan-out: always the writer
    request.channel = channel;
    auto lease = m_router.route(request);
    if (!lease)
        return false;
    return lease.connection().lookup().canRead(community, channel, pubkey);
}

} // namespace buzz::relay::query
