#include "relay/routing/ReplicaRouter.h"

#include "relay/model/ReadLimits.h"
#include "relay/replication/ReplicaTier.h"
#include "relay/store/EventLookup.h"
#include "relay/store/ReadConnection.h"
#include "relay/store/Store.h"

namespace buzz::relay::routing {

using replication::FaultKind;
using replication::ReadReplica;
using replication::ReplicaTier;

struct ReplicaRouter::Ticket
{
    ReplicaTier *set = nullptr;
    ReadPath path = ReadPath::BridgeQuery;
    RouteDecision decision;
    std::vector<RouteRequest> requests;
    std::vector<int> threadLimits; // effective limit per filter, -1 when not a post-verified page
    std::unique_ptr<replication::ReplicaReader> reader;
    bool historyPermit = false;
    bool counted = false;

    void count(RouteDecisionLabel label, RouteReason reason)
    {
        if (counted)
            return;
        counted = true;
        set->metrics().record(path, label, reason);
    }
    void release()
    {
        reader.reset();
        if (historyPermit)
            set->releaseHistoryPermit();
        historyPermit = false;
        count(RouteDecisionLabel::Replica, decision.reason);
    }
};

ReplicaRouter::ReplicaRouter(store::Store &database, ReplicaTier &replicas)
    : m_database(database)
    , m_replicas(replicas)
{ }

std::vector<RouteRequest> ReplicaRouter::routeRequestsFor(const ReadRequest &request)
{
    std::vector<RouteRequest> out;
    if (!request.filters || request.filters->empty()) {
        ReadShape shape;
        shape.pinsOneChannel = request.channel.has_value();
        // Without the filter a thread page cannot be verified afterwards: no content proof.
        shape.channelRowsOnly = shape.pinsOneChannel && request.path != ReadPath::BridgeThreadAux;
        shape.until = request.until;
        shape.touchesChannelMetadata = request.mustUseWriter;
        out.push_back({request.path, request.strong, shape});
        return out;
    }
    out.reserve(request.filters->size());
    for (const nostr::Filter &filter : *request.filters)
        out.push_back({request.path, filter.isStrong(), ReadShape::of(filter)});
    return out;
}

RouteDecision ReplicaRouter::decideAll(const std::vector<RouteRequest> &requests,
                                       std::int64_t budgetMs, std::int64_t nowMs,
                                       const std::vector<ReplicaProof> &proofs, std::size_t start)
{
    RouteDecision firstFailure;
    bool haveFailure = false;
    const std::size_t count = proofs.size();
    if (count == 0 || requests.empty())
        return RoutePolicy::decide(requests.empty() ? RouteRequest {} : requests.front(), budgetMs,
                                   nowMs, {});
    for (std::size_t step = 0; step < count; ++step) {
        const std::size_t index = (start + step) % count;
        const std::span<const ReplicaProof> one(&proofs[index], 1);
        RouteDecision combined;
        bool servable = true;
        for (std::size_t i = 0; i < requests.size(); ++i) {
            RouteDecision decision = RoutePolicy::decide(requests[i], budgetMs, nowMs, one);
            if (!decision.onReplica()) {
                if (!haveFailure) {
                    firstFailure = decision;
                    haveFailure = true;
                }
                servable = false;
                break;
            }
            if (i == 0)
                combined = decision;
            else if (decision.reason == RouteReason::Fresh)
                combined.reason = RouteReason::Fresh; // the weakest proof used names the read
        }
        if (servable) {
            combined.replica = static_cast<int>(index);
            return combined;
        }
        // Reasons that do not depend on the replica: no other replica can do better.
        if (firstFailure.reason == RouteReason::Disabled
            || firstFailure.reason == RouteReason::Strong
            || firstFailure.reason == RouteReason::ChannelMetadata
            || firstFailure.reason == RouteReason::NotChannelScoped)
            break;
    }
    return firstFailure;
}

ReadLease ReplicaRouter::writerLease(std::string reason)
{
    return ReadLease(m_database.leaseWriterConnection(), "writer", std::move(reason));
}

ReadLease ReplicaRouter::writerLease(ReadPath path, RouteReason reason, bool count)
{
    if (count)
        m_replicas.metrics().record(path, RouteDecisionLabel::Writer, reason);
    return writerLease(std::string(toLabel(reason)));
}

ReadLease ReplicaRouter::route(const ReadRequest &request)
{
    // A settle already counted this read and chose the writer.
    if (request.forceWriterReason)
        return writerLease(*request.forceWriterReason);
    // Permission and write-gating reads are not routed reads at all.
    if (request.mustUseWriter && !request.filters)
        return writerLease("writer_only");

    std::vector<RouteRequest> requests = routeRequestsFor(request);
    if (!request.liveScopes.empty()) {
        std::int64_t position = 0;
        for (const ReadRequest::LiveScope &scope : request.liveScopes)
            position =
                std::max(position, m_replicas.scopePositions().required(request.community, scope));
        for (RouteRequest &each : requests)
            each.livePosition = position;
    }
    const std::vector<ReplicaProof> proofs = m_replicas.proofs();
    const std::int64_t nowMs = m_replicas.clock().nowMs();
    const std::int64_t budgetMs = m_replicas.budgetMs();
    RouteDecision decision =
        decideAll(requests, budgetMs, nowMs, proofs, m_replicas.nextStartIndex());
    if (!decision.onReplica())
        return writerLease(request.path, decision.reason, true);

    ReadReplica &replica = m_replicas.replicaAt(decision.replica);
    if (replica.faults().take(FaultKind::Error))
        return writerLease(
            request.path, RoutePolicy::onOutcome(request.path, ReplicaOutcome::Error).reason, true);
    // A standby that runs the timeout fault itself (a real statement_timeout) is left to it.
    if (!replica.runsTimeoutFault() && replica.faults().take(FaultKind::Timeout)) {
        m_replicas.metrics().record(request.path, RouteDecisionLabel::Replica,
                                    RouteReason::StatementCancelled);
        return ReadLease::refused(ReadLease::Refusal::TimedOut, "replica", "statement_cancelled");
    }

    auto ticket = std::make_shared<Ticket>();
    ticket->set = &m_replicas;
    ticket->path = request.path;
    ticket->decision = decision;
    ticket->requests = requests;
    const auto wait = m_replicas.config().acquireTimeout;
    const auto busy = [&]() -> ReadLease {
        const OutcomeRule rule =
            RoutePolicy::onOutcome(request.path, ReplicaOutcome::AcquireTimeout);
        if (rule.action == OutcomeAction::RejectRetryable) {
            m_replicas.metrics().record(request.path, RouteDecisionLabel::Rejected, rule.reason);
            return ReadLease::refused(ReadLease::Refusal::Retryable, "replica",
                                      std::string(toLabel(rule.reason)));
        }
        return writerLease(request.path, rule.reason, true);
    };
    if (request.path == ReadPath::ReqHistorical) {
        if (!m_replicas.acquireHistoryPermit(wait))
            return busy();
        ticket->historyPermit = true;
    }
    ReadReplica::AcquireFailure failure = ReadReplica::AcquireFailure::None;
    ticket->reader = replica.acquireReader(wait, failure);
    if (!ticket->reader) {
        ticket->counted = true; // counted by busy() or here
        ticket->release();
        // A replica that cannot be reached at all (a stopped standby) fails closed to the writer.
        if (failure == ReadReplica::AcquireFailure::Unavailable)
            return writerLease(request.path,
                               RoutePolicy::onOutcome(request.path, ReplicaOutcome::Error).reason,
                               true);
        return busy();
    }

    // The proof that counts is the one of the snapshot this read will see.
    ReplicaProof snapshotProof = m_replicas.ring().resolve(ticket->reader->heartbeat());
    snapshotProof.position = ticket->reader->position();
    const RouteDecision recheck = decideAll(requests, budgetMs, nowMs, {snapshotProof}, 0);
    if (!recheck.onReplica()) {
        ticket->counted = true;
        ticket->release();
        return writerLease(request.path, recheck.reason, true);
    }
    ticket->decision.reason = recheck.reason;
    ticket->decision.fenceWallSec = recheck.fenceWallSec;

    ticket->threadLimits.assign(requests.size(), -1);
    for (std::size_t i = 0; i < requests.size(); ++i) {
        if (RoutePolicy::armFor(requests[i]) != RouteArm::CoveredPostVerified || !request.filters)
            continue;
        const nostr::Filter &filter = (*request.filters)[i];
        ticket->threadLimits[i] = ReadLimits::threadPageLimit(filter);
        // The root must be on this replica's snapshot, or the page cannot be anchored there.
        const auto roots = filter.tags.find('e');
        if (roots != filter.tags.end() && roots->second.size() == 1 && !request.community.empty()
            && !ticket->reader->connection().lookup().findById(request.community,
                                                               roots->second.front())) {
            ticket->counted = true;
            ticket->release();
            return writerLease(request.path, RouteReason::MissingRoot, true);
        }
    }

    const auto release = [ticket] {
        ticket->release();
    };
    ReadLease lease(store::ConnectionLease(&ticket->reader->connection(), release), "replica",
                    std::string(toLabel(ticket->decision.reason)));
    lease.setSettle([ticket](const ReadAttempt &attempt) { return settle(*ticket, attempt); });
    // Told to the client (X-Buzz-Read-Route, the EOSE's extension) so QA sees which replica
    // answered and how far behind the writer its snapshot may be (relay/README.md "Read routing").
    lease.setReplica(replica.name(),
                     std::max<std::int64_t>(0, nowMs - snapshotProof.entryCommittedAtMs));
    return lease;
}

ReadSettlement ReplicaRouter::settle(Ticket &ticket, const ReadAttempt &attempt)
{
    using Action = ReadSettlement::Action;
    if (!attempt.ok) {
        const bool timedOut =
            attempt.timedOut || (ticket.reader && ticket.reader->deadlineExceeded());
        const OutcomeRule rule = RoutePolicy::onOutcome(
            ticket.path, timedOut ? ReplicaOutcome::StatementTimeout : ReplicaOutcome::Error);
        if (rule.action == OutcomeAction::SurfaceTimeout) {
            ticket.count(RouteDecisionLabel::Replica, rule.reason);
            return {Action::TimedOut, std::string(toLabel(rule.reason))};
        }
        ticket.count(RouteDecisionLabel::Writer, rule.reason);
        return {Action::RerunOnWriter, std::string(toLabel(rule.reason))};
    }
    for (std::size_t i = 0; i < ticket.threadLimits.size() && i < attempt.pages.size(); ++i) {
        if (ticket.threadLimits[i] < 0)
            continue;
        const auto &page = attempt.pages[i];
        const OutcomeRule rule = RoutePolicy::verifyThreadPage(
            page.rows, ticket.threadLimits[i], page.newestCreatedAt, ticket.decision.fenceWallSec);
        if (rule.action == OutcomeAction::RerunOnWriter) {
            ticket.count(RouteDecisionLabel::Writer, rule.reason);
            return {Action::RerunOnWriter, std::string(toLabel(rule.reason))};
        }
    }
    ticket.count(RouteDecisionLabel::Replica, ticket.decision.reason);
    return {};
}

} // namespace buzz::relay::routing
