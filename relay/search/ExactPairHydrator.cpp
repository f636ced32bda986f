#include "relay/search/ExactPairHydrator.h"

#include "relay/search/ExactPairLookup.h"
#include "relay/search/PgExactPairLookup.h"
#include "relay/store/sqlite/SqliteConnection.h"

#include <QLoggingCategory>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

Q_LOGGING_CATEGORY(lcHydrate, "buzz.relay.search.hydrate")

namespace buzz::relay::search {

namespace {
HydrationResult failed(HydrationResult::Status status, std::string message)
{
    HydrationResult result;
    result.status = status;
    result.message = std::move(message);
    return result;
}
} // namespace

template<class Lookup>
HydrationResult ExactPairHydrator::routed(const std::string &community, ReadPath caller,
                                          Lookup lookup)
{
    ReadRequest request;
    request.path = caller;
    request.community = community;
    // A replica read is settled once; a settle may ask for exactly one re-run on the writer.
    for (int attempt = 0; attempt < 2; ++attempt) {
        routing::ReadLease lease = m_router.route(request);
        if (lease.refusal() == routing::ReadLease::Refusal::TimedOut)
            return failed(HydrationResult::Status::TimedOut, "query timed out");
        if (lease.refusal() == routing::ReadLease::Refusal::Retryable)
            return failed(HydrationResult::Status::Retryable,
                          "retryable: read replicas are busy, try again shortly");
        if (!lease)
            return failed(HydrationResult::Status::Internal, "internal server error");

        ExactPairLookup::Rows rows = lookup(lease);
        ReadAttempt readAttempt;
        readAttempt.ok = rows.ok;
        readAttempt.sqliteCode = rows.sqliteCode;
        readAttempt.timedOut = rows.timedOut;
        auto &page = readAttempt.pages.emplace_back();
        page.rows = rows.events.size();
        for (const StoredEvent &stored : rows.events)
            page.newestCreatedAt = std::max(page.newestCreatedAt.value_or(stored.event.createdAt),
                                            stored.event.createdAt);

        const ReadSettlement settlement = lease.settle(readAttempt);
        if (settlement.action == ReadSettlement::Action::TimedOut)
            return failed(HydrationResult::Status::TimedOut, "query timed out");
        if (settlement.action == ReadSettlement::Action::RerunOnWriter) {
            request.forceWriterReason = settlement.reason;
            continue;
        }
        if (!rows.ok) {
            qCWarning(lcHydrate) << "hydration failed, sqlite code" << rows.sqliteCode;
            return failed(HydrationResult::Status::Internal, "internal server error");
        }
        HydrationResult result;
        result.events = std::move(rows.events);
        result.route = lease.route();
        result.routeReason = lease.reason();
        result.replica = lease.replica();
        result.replicaDataAgeMs = lease.dataAgeMs();
        return result;
    }
    return failed(HydrationResult::Status::Internal, "internal server error");
}

HydrationResult ExactPairHydrator::hydrateExactPairs(const std::string &community,
                                                     std::span<const EventPair> pairs,
                                                     ReadPath caller)
{
    if (auto error = ExactPairLookup::validate(pairs))
        return failed(HydrationResult::Status::Invalid, std::move(*error));
    const std::vector<EventPair> wanted = ExactPairLookup::distinct(pairs);
    if (wanted.empty())
        return {};
    // Rows come back in the order asked (relevance), which callers rank by.
    return routed(community, caller, [&](const routing::ReadLease &lease) {
        return lease.postgres() ? PgExactPairLookup::findPairs(*lease.postgres(), community, wanted)
                                : ExactPairLookup::findPairs(lease.connection(), community, wanted);
    });
}

HydrationResult ExactPairHydrator::hydrateIds(const std::string &community,
                                              std::span<const std::string> ids, ReadPath caller)
{
    if (auto error = ExactPairLookup::validateIds(ids))
        return failed(HydrationResult::Status::Invalid, std::move(*error));
    std::vector<std::string> wanted;
    wanted.reserve(ids.size());
    std::unordered_set<std::string_view> seen;
    for (const std::string &id : ids) {
        if (seen.insert(id).second)
            wanted.push_back(id);
    }
    if (wanted.empty())
        return {};
    return routed(community, caller, [&](const routing::ReadLease &lease) {
        return lease.postgres() ? PgExactPairLookup::findIds(*lease.postgres(), community, wanted)
                                : ExactPairLookup::findIds(lease.connection(), community, wanted);
    });
}

} // namespace buzz::relay::search
