// Search on replicas: every replica keeps its own full-text index by replaying the
// commit log, the search pool prefers a replica, and hydration is routed on the Bounded arm with
// the routing layer's fallback and timeout rules (driven through its fault hooks).

#include "test_search_support.h"

#include "relay/routing/ReplicaRouter.h"
#include "relay/search/ExactPairHydrator.h"
#include "relay/search/SearchService.h"

#include <QTest>

using namespace searchtest;
using buzz::relay::replication::FaultKind;
using buzz::relay::replication::RelayClock;
using buzz::relay::replication::ReplicaSet;
using buzz::relay::replication::ReplicationConfig;
using buzz::relay::search::EventPair;
using buzz::relay::search::ExactPairHydrator;
using buzz::relay::search::HydrationResult;
using buzz::relay::search::SearchService;

namespace {
constexpr std::int64_t kClockStartMs = 1'790'000'000'000;

} // namespace

class TestSearchReplica : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_store = std::make_unique<StoreHarness>();
        QVERIFY(m_store->database);
        // An open channel so the search scope includes it.
        {
            auto tx = m_store->database->beginWrite(kCommunity, 1);
            model::Channel channel;
            channel.community = kCommunity;
            channel.uuid = kChannel;
            channel.name = "general";
            channel.visibility = "open";
            channel.channelType = "stream";
            channel.createdBy = m_store->key.publicKeyHex();
            channel.createdAt = kJan2026;
            channel.createEventId = std::string(64, 'c');
            QVERIFY(tx && tx->rows().upsertChannel(channel) && tx->commit(1));
        }
        m_clock = RelayClock::manual(kClockStartMs);
        ReplicationConfig config;
        config.replicas = 1;
        config.budgetMs = 1000;
        config.runDriver = false;
        config.clock = m_clock;
        config.acquireTimeout = std::chrono::milliseconds(20);
        std::string error;
        m_replicas = ReplicaSet::attach(*m_store->database, config, error);
        QVERIFY2(m_replicas, error.c_str());
        m_router = std::make_unique<routing::ReplicaRouter>(*m_store->database, *m_replicas);
        m_hydrator = std::make_unique<ExactPairHydrator>(*m_router);
        m_search = std::make_unique<SearchService>(*m_store->database, *m_router);
        m_search->setReplicas(m_replicas.get());
    }
    void cleanup()
    {
        m_search.reset();
        m_hydrator.reset();
        m_router.reset();
        m_replicas.reset();
        m_store.reset();
    }

    // Heartbeat on the writer, then replay to every unpaused replica.
    void replicate()
    {
        QVERIFY(m_replicas->heartbeat());
        m_replicas->pump();
    }

    void freshReplicaServesHydration()
    {
        const auto event = m_store->insert(kJun2026, "replicated");
        replicate();
        const auto result = m_hydrator->hydrateExactPairs(
            kCommunity, std::vector {StoreHarness::pairOf(event)}, ReadPath::BridgeSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::Ok));
        QCOMPARE(result.route, std::string("replica"));
        QCOMPARE(result.routeReason, std::string("fresh"));
        // Which replica, and how old its data was (relay/README.md "Read routing").
        QCOMPARE(result.replica, std::string("replica-0"));
        QVERIFY(result.replicaDataAgeMs >= 0);
        QCOMPARE(idsOf(result.events), std::vector<std::string> {event.id});
        QCOMPARE(m_replicas->metrics().count(ReadPath::BridgeSearchHydrate,
                                             RouteDecisionLabel::Replica, RouteReason::Fresh),
                 std::uint64_t(1));
    }

    void rowMissingOnTheReplicaIsSkippedNotInvented()
    {
        const auto old = m_store->insert(kJun2026, "old");
        replicate();
        m_replicas->replica(0).setPaused(true);
        const auto recent = m_store->insert(kJun2026 + 60, "recent");
        // Still within the budget: the replica serves, and the row it does not have is skipped.
        const auto result = m_hydrator->hydrateExactPairs(
            kCommunity, std::vector {StoreHarness::pairOf(recent), StoreHarness::pairOf(old)},
            ReadPath::ReqSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::Ok));
        QCOMPARE(result.route, std::string("replica"));
        QCOMPARE(idsOf(result.events), std::vector<std::string> {old.id});
    }

    void staleReplicaFallsBackToTheWriter()
    {
        const auto old = m_store->insert(kJun2026, "old");
        replicate();
        m_replicas->replica(0).setPaused(true);
        const auto recent = m_store->insert(kJun2026 + 60, "recent");
        m_clock->advanceMs(5'000); // beyond the 1 s budget
        QVERIFY(m_replicas->heartbeat());
        const auto result = m_hydrator->hydrateExactPairs(
            kCommunity, std::vector {StoreHarness::pairOf(recent), StoreHarness::pairOf(old)},
            ReadPath::BridgeSearchHydrate);
        QCOMPARE(result.route, std::string("writer"));
        QCOMPARE(result.routeReason, std::string("stale"));
        QCOMPARE(result.replica, std::string()); // the writer names no replica
        QCOMPARE(idsOf(result.events), (std::vector<std::string> {recent.id, old.id}));
        QCOMPARE(m_replicas->metrics().count(ReadPath::BridgeSearchHydrate,
                                             RouteDecisionLabel::Writer, RouteReason::Stale),
                 std::uint64_t(1));
    }

    void replicaErrorReRunsOnTheWriter()
    {
        const auto event = m_store->insert(kJun2026, "error");
        replicate();
        m_replicas->replica(0).faults().add(FaultKind::Error, 1);
        const auto result = m_hydrator->hydrateExactPairs(
            kCommunity, std::vector {StoreHarness::pairOf(event)}, ReadPath::ProfileSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::Ok));
        QCOMPARE(result.route, std::string("writer"));
        QCOMPARE(result.routeReason, std::string("replica_error"));
        QCOMPARE(idsOf(result.events), std::vector<std::string> {event.id});
    }

    void replicaStatementTimeoutIsSurfaced()
    {
        const auto event = m_store->insert(kJun2026, "timeout");
        replicate();
        m_replicas->replica(0).faults().add(FaultKind::Timeout, 1);
        const auto result = m_hydrator->hydrateExactPairs(
            kCommunity, std::vector {StoreHarness::pairOf(event)}, ReadPath::BridgeSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::TimedOut));
        QVERIFY(result.events.empty());
        QCOMPARE(m_replicas->metrics().count(ReadPath::BridgeSearchHydrate,
                                             RouteDecisionLabel::Replica,
                                             RouteReason::StatementCancelled),
                 std::uint64_t(1));
        // Through search, the same timeout is a 503 / CLOSED "error: query timed out".
        m_replicas->replica(0).faults().add(FaultKind::Timeout, 1);
        const auto searched = m_search->search(
            filters(R"([{"kinds":[9],"search":"timeout"}])"),
            RequestContext {kCommunity, m_store->key.publicKeyHex(), Transport::Http},
            ReadPath::BridgeQuery);
        QCOMPARE(int(searched.status), int(QueryResult::Status::TimedOut));
    }

    void busyReplicaFallsBackToTheWriter()
    {
        const auto event = m_store->insert(kJun2026, "busy");
        replicate();
        m_replicas->replica(0).faults().add(FaultKind::Busy, 1);
        const auto result = m_hydrator->hydrateExactPairs(
            kCommunity, std::vector {StoreHarness::pairOf(event)}, ReadPath::ReqSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::Ok));
        QCOMPARE(result.route, std::string("writer"));
        QCOMPARE(result.routeReason, std::string("reader_acquire_timeout"));
        QCOMPARE(idsOf(result.events), std::vector<std::string> {event.id});
    }

    void theThreeHydrationCallersAppearInTheRouteMetric()
    {
        const auto event = m_store->insert(kJun2026, "labels");
        replicate();
        const std::vector pairs {StoreHarness::pairOf(event)};
        for (const ReadPath path : {ReadPath::BridgeSearchHydrate, ReadPath::ReqSearchHydrate,
                                    ReadPath::ProfileSearchHydrate})
            QCOMPARE(m_hydrator->hydrateExactPairs(kCommunity, pairs, path).events.size(),
                     std::size_t(1));
        const std::string text = m_replicas->metricsText();
        for (const char *label :
             {"bridge_search_hydrate", "req_search_hydrate", "profile_search_hydrate"}) {
            const std::string series = std::string("buzz_db_route_decision_total{path=\"") + label
                + "\",decision=\"replica\",reason=\"fresh\"} 1";
            QVERIFY2(text.find(series) != std::string::npos, text.c_str());
        }
    }

    void replicaKeepsItsOwnIndexAndServesSearchWhileLagging()
    {
        const auto early = m_store->insert(kJun2026, "quarterly roadmap draft");
        replicate();
        m_replicas->replica(0).setPaused(true);
        const auto late = m_store->insert(kJun2026 + 30, "quarterly roadmap final");
        const RequestContext context {kCommunity, m_store->key.publicKeyHex(), Transport::Http};

        // The lagging replica serves the full-text query: only the replicated hit exists there.
        auto result = m_search->search(filters(R"([{"kinds":[9],"search":"quarterly roadmap"}])"),
                                       context, ReadPath::BridgeQuery);
        QCOMPARE(int(result.status), int(QueryResult::Status::Ok));
        QCOMPARE(idsOf(result.events), std::vector<std::string> {early.id});
        QCOMPARE(m_search->pool().replicaReads(), std::uint64_t(1));
        QCOMPARE(m_search->pool().writerReads(), std::uint64_t(0));

        // Caught up (replaying the same log), the replica's index has the new hit too.
        m_replicas->replica(0).setPaused(false);
        replicate();
        result = m_search->search(filters(R"([{"kinds":[9],"search":"roadmap final"}])"), context,
                                  ReadPath::BridgeQuery);
        QCOMPARE(idsOf(result.events), std::vector<std::string> {late.id});
        QCOMPARE(m_search->pool().replicaReads(), std::uint64_t(2));

        // A soft delete replayed on the replica drops its index entry as well.
        QVERIFY(m_store->softDelete(late));
        replicate();
        result = m_search->search(filters(R"([{"kinds":[9],"search":"final"}])"), context,
                                  ReadPath::BridgeQuery);
        QVERIFY(result.events.empty());
    }

    void withoutAHeartbeatTheSearchPoolUsesTheWriter()
    {
        const auto event = m_store->insert(kJun2026, "unreplicated words");
        const RequestContext context {kCommunity, m_store->key.publicKeyHex(), Transport::Http};
        const auto result = m_search->search(filters(R"([{"kinds":[9],"search":"unreplicated"}])"),
                                             context, ReadPath::BridgeQuery);
        QCOMPARE(idsOf(result.events), std::vector<std::string> {event.id});
        QCOMPARE(m_search->pool().replicaReads(), std::uint64_t(0));
        QCOMPARE(m_search->pool().writerReads(), std::uint64_t(1));
    }

private:
    std::unique_ptr<StoreHarness> m_store;
    std::shared_ptr<RelayClock> m_clock;
    std::unique_ptr<ReplicaSet> m_replicas;
    std::unique_ptr<routing::ReplicaRouter> m_router;
    std::unique_ptr<ExactPairHydrator> m_hydrator;
    std::unique_ptr<SearchService> m_search;
};

QTEST_GUILESS_MAIN(TestSearchReplica)
#include "test_search_replica.moc"
