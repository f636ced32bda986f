#include "relay/search/ExactPairHydrator.h"

#include "relay/search/ExactPairLookup.h"
#include "relay/store/ReadConnection.h"

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

        std::vector<StoredEvent> rows;
        const store::ReadStatus status = lookup(lease.connection(), rows);
        ReadAttempt readAttempt;
        readAttempt.ok = status.ok;
        readAttempt.timedOut = status.timedOut;
        auto &page = readAttempt.pages.emplace_back();
        page.rows = rows.size();
        for (const StoredEvent &stored : rows)
            page.newestCreatedAt = std::max(page.newestCreatedAt.value_or(stored.event.createdAt),
                                            stored.event.createdAt);

        const ReadSettlement settlement = lease.settle(readAttempt);
        if (settlement.action == ReadSettlement::Action::TimedOut)
            return failed(HydrationResult::Status::TimedOut, "query timed out");
        if (settlement.action == ReadSettlement::Action::RerunOnWriter) {
            request.forceWriterReason = settlement.reason;
            continue;
        }
        if (!status.ok) {
            qCWarning(lcHydrate) << "hydration failed, code" << status.code;
            return failed(HydrationResult::Status::Internal, "internal server error");
        }
        HydrationResult result;
        result.events = std::move(rows);
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
    return routed(community, caller,
                  [&](store::ReadConnection &connection, std::vector<StoredEvent> &rows) {
                      return connection.findPairs(community, wanted,
                                                  store::ReadConnection::Deleted::Omit, rows);
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
    return routed(community, caller,
                  [&](store::ReadConnection &connection, std::vector<StoredEvent> &rows) {
                      return connection.findIds(community, wanted, rows);
                  });
}

} // namespace buzz::relay::search
