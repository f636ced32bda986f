// Routing through the engine's read seam with divergent fixtures: a writer-only fresh row and a
// replica-only marker row show which pool served each read. Manual clock, explicit heartbeats and
// replay: nothing sleeps.

#include "test_routing_support.h"

#include "relay/store/sqlite/SqliteConnection.h"

#include <QTest>

using namespace routingtest;

namespace {
const std::string kChannel = "7c0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d01";

// The writer-only fresh row and the replica-only marker, with the replica paused in between.
struct Divergent
{
    std::string stable, marker, fresh;
};

Divergent diverge(RoutingHarness &h)
{
    Divergent d;
    h.createChannel(kChannel);
    d.stable = h.post(kChannel, h.nowSec() - 10, "stable");
    h.beatAndReplay();
    if (!h.onPostgres()) {
        d.marker = h.injectReplicaMarker(kChannel, h.nowSec() - 5);
        h.replica().setPaused(true);
    } else {
        // Nothing can be written to a standby alone: the marker is a row the standby replayed
        // and then, with its replay paused, the writer deleted (same heartbeat, same clock).
        d.marker = h.post(kChannel, h.nowSec() - 5, "replica-marker");
        h.beatAndReplay();
        QTest::qVerify(h.replica().setPaused(true), "setPaused(true)", "the standby did not pause",
                       __FILE__, __LINE__);
        QTest::qVerify(h.remove(d.marker), "remove(marker)", "", __FILE__, __LINE__);
    }
    d.fresh = h.post(kChannel, h.nowSec(), "fresh");
    return d;
}

// A subscription's history is left to a replica only once it holds every commit of the channel
// (the fresh row too): resumed and replayed, for the tests of what a replica then does with it.
void catchUp(RoutingHarness &h)
{
    QTest::qVerify(h.replica().setPaused(false), "setPaused(false)", "the replica did not resume",
                   __FILE__, __LINE__);
    h.beatAndReplay();
}
} // namespace

class TestRoutingEngine : public QObject
{
    Q_OBJECT

private slots:
    void budgetZeroKeepsEveryReadOnTheWriter();
    void noReplicaMeansNoPoolGauges();
    void headReadFollowsTheBudget();
    void subscriptionHistoryHoldsEveryCommitBeforeItWentLive();
    void strongAlwaysReadsTheWriter();
    void invalidConsistencyIsRejected();
    void channelMetadataReadsTheWriter();
    void uninitializedReplicaFailsClosed();
    void replicaErrorRerunsOnTheWriter();
    void statementTimeoutIsSurfacedNotRerun();
    void busyReaderFallsBackExceptForHistory();
    void historyReadsAreCappedBelowThePool();
    void countsUseTheBoundedArmOnly();
    void clockGoingBackRotatesTheEpoch();
    void metricsNameEveryDecision();
    void readerStatementTimeoutInterrupts();
};

void TestRoutingEngine::budgetZeroKeepsEveryReadOnTheWriter()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 0});
    const Divergent d = diverge(h);
    const QueryResult head = h.read(channelFilter(kChannel, 10));
    QCOMPARE(head.route, std::string("writer"));
    QCOMPARE(head.routeReason, std::string("disabled"));
    QVERIFY(RoutingHarness::contains(head, d.fresh));
    QVERIFY(!RoutingHarness::contains(head, d.marker));
    QCOMPARE(h.decisions(ReadPath::BridgeQuery, RouteDecisionLabel::Writer, RouteReason::Disabled),
             1u);
    QVERIFY(h.engine->metricsText().find("buzz_db_read_pool_max{pool=\"replica-0\"} 4")
            != std::string::npos);
}

void TestRoutingEngine::noReplicaMeansNoPoolGauges()
{
    RoutingHarness h({.replicas = 0, .budgetMs = 1000});
    h.createChannel(kChannel);
    const QueryResult head = h.read(channelFilter(kChannel, 10));
    QCOMPARE(head.status, QueryResult::Status::Ok);
    QCOMPARE(head.route, std::string("writer"));
    QCOMPARE(head.routeReason, std::string("disabled"));
    QVERIFY(h.engine->metricsText().find("buzz_db_read_pool_") == std::string::npos);
}

void TestRoutingEngine::headReadFollowsTheBudget()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    const Divergent d = diverge(h);

    h.advanceMs(1000); // proof exactly at the budget: still fresh
    QueryResult head = h.read(channelFilter(kChannel, 10));
    QCOMPARE(head.route, std::string("replica"));
    QCOMPARE(head.routeReason, std::string("fresh"));
    QVERIFY(RoutingHarness::contains(head, d.marker));
    QVERIFY(RoutingHarness::contains(head, d.stable));
    QVERIFY(!RoutingHarness::contains(head, d.fresh)); // bounded staleness: at most the budget old

    h.advanceMs(1); // the budget no longer proves freshness
    head = h.read(channelFilter(kChannel, 10));
    QCOMPARE(head.route, std::string("writer"));
    QCOMPARE(head.routeReason, std::string("stale"));
    QVERIFY(RoutingHarness::contains(head, d.fresh));
    QVERIFY(!RoutingHarness::contains(head, d.marker));

    // Resumed and replayed: fresh again, and now the replica has the fresh row too.
    h.replica().setPaused(false);
    h.beatAndReplay();
    head = h.read(channelFilter(kChannel, 10), ReadPath::ReqHistorical);
    QCOMPARE(head.route, std::string("replica"));
    QVERIFY(RoutingHarness::contains(head, d.fresh));
    // The SQLite marker is the replica's alone; the standby has now replayed its deletion too.
    QCOMPARE(RoutingHarness::contains(head, d.marker), !h.onPostgres());
}

void TestRoutingEngine::subscriptionHistoryHoldsEveryCommitBeforeItWentLive()
{
    // A 3,000 ms budget and a replica 2,500 ms behind (on PostgreSQL: a standby whose replay is
    // paused): r2 saved, a subscription opened 200 ms later. Its history must hold r2, which
    // committed before the subscription went live and so never reaches it live; a display read
    // may still be the budget old (relay/README.md "Read routing").
    RoutingHarness h({.replicas = 1, .budgetMs = 3000});
    const std::string quiet = "7c0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d11";
    h.createChannel(kChannel);
    h.createChannel(quiet);
    const std::string r1 = h.saveCanvas(kChannel, h.nowSec() - 5, "r1");
    const std::string other = h.saveCanvas(quiet, h.nowSec(), "quiet");
    QVERIFY(!r1.empty() && !other.empty());
    h.beatAndReplay();
    if (h.onPostgres()) {
        QVERIFY(h.replica().setPaused(true));
    } else {
        h.setLagMs(0, 2500);
        for (int beat = 0; beat < 6; ++beat) { // steady state: the replica holds what is 2.5 s old
            h.advanceMs(500);
            h.beatAndReplay();
        }
    }
    const std::int64_t since = h.nowSec() - 60;
    const std::string r2 = h.saveCanvas(kChannel, h.nowSec(), "r2", r1);
    QVERIFY(!r2.empty());
    h.advanceMs(200);

    const std::string head = "[{\"kinds\":[40100],\"#h\":[\"" + kChannel
        + "\"],\"since\":" + std::to_string(since) + ",\"limit\":1}]";
    QueryResult history = h.read(head, ReadPath::ReqHistorical);
    QCOMPARE(history.status, QueryResult::Status::Ok);
    QCOMPARE(RoutingHarness::ids(history), std::vector<std::string> {r2});
    QCOMPARE(history.route, std::string("writer"));
    QCOMPARE(history.routeReason, std::string("not_caught_up"));
    const std::string plain = "[{\"kinds\":[40100],\"#h\":[\"" + kChannel + "\"]}]";
    QVERIFY(RoutingHarness::contains(h.read(plain, ReadPath::ReqHistorical), r2));
    // Without #h the history may hold rows of every channel the viewer reads: the same rule.
    const QueryResult unpinned = h.read("[{\"kinds\":[40100]}]", ReadPath::ReqHistorical);
    QVERIFY(RoutingHarness::contains(unpinned, r2));
    QCOMPARE(unpinned.routeReason, std::string("not_caught_up"));

    // What the rule does not touch: a channel with no commit the replica lacks, another kind in
    // the written channel, and one-shot display reads (bounded by the budget per read).
    const QueryResult chat = h.read(channelFilter(kChannel, 10), ReadPath::ReqHistorical);
    QCOMPARE(chat.route, std::string("replica"));
    const QueryResult calm =
        h.read("[{\"kinds\":[40100],\"#h\":[\"" + quiet + "\"]}]", ReadPath::ReqHistorical);
    QCOMPARE(calm.route, std::string("replica"));
    QCOMPARE(RoutingHarness::ids(calm), std::vector<std::string> {other});
    const QueryResult display = h.read(head);
    QCOMPARE(display.route, std::string("replica"));
    QCOMPARE(RoutingHarness::ids(display), std::vector<std::string> {r1});

    // Once the replica holds a heartbeat written after r2, it serves the subscription again.
    if (h.onPostgres()) {
        QVERIFY(h.replica().setPaused(false));
        h.beatAndReplay();
    } else {
        for (int beat = 0; beat < 6; ++beat) {
            h.advanceMs(500);
            h.beatAndReplay();
        }
    }
    history = h.read(head, ReadPath::ReqHistorical);
    QCOMPARE(history.route, std::string("replica"));
    QCOMPARE(RoutingHarness::ids(history), std::vector<std::string> {r2});
}

void TestRoutingEngine::strongAlwaysReadsTheWriter()
{
    RoutingHarness h({.replicas = 2, .budgetMs = 30000});
    const Divergent d = diverge(h);
    const QueryResult strong = h.read("[{\"kinds\":[9],\"#h\":[\"" + kChannel
                                      + "\"],\"limit\":10,\"consistency\":\"strong\"}]");
    QCOMPARE(strong.route, std::string("writer"));
    QCOMPARE(strong.routeReason, std::string("strong"));
    QVERIFY(RoutingHarness::contains(strong, d.fresh));
    QVERIFY(!RoutingHarness::contains(strong, d.marker));
}

void TestRoutingEngine::invalidConsistencyIsRejected()
{
    RoutingHarness h;
    const QueryResult bad = h.read("[{\"kinds\":[9],\"consistency\":\"eventual\"}]");
    QCOMPARE(bad.status, QueryResult::Status::BadRequest);
    QVERIFY2(bad.message.find("consistency") != std::string::npos, bad.message.c_str());
}

void TestRoutingEngine::channelMetadataReadsTheWriter()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    diverge(h);
    const std::string idOnly = "[{\"ids\":[\"" + std::string(64, 'a') + "\"]}]";
    for (const std::string &filter : {std::string("[{\"kinds\":[39000],\"#d\":[\"x\"]}]"), idOnly,
                                      std::string("[{\"kinds\":[9,39000],\"limit\":5}]")}) {
        const QueryResult result = h.read(filter);
        QCOMPARE(result.status, QueryResult::Status::Ok);
        QCOMPARE(result.route, std::string("writer"));
        QCOMPARE(result.routeReason, std::string("channel_metadata"));
    }
}

void TestRoutingEngine::uninitializedReplicaFailsClosed()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    h.createChannel(kChannel);
    h.replay(); // rows replayed, but no heartbeat yet
    QueryResult head = h.read(channelFilter(kChannel, 10));
    QCOMPARE(head.route, std::string("writer"));
    QCOMPARE(head.routeReason, std::string("uninitialized"));
    h.beatAndReplay();
    head = h.read(channelFilter(kChannel, 10));
    QCOMPARE(head.route, std::string("replica"));
}

void TestRoutingEngine::replicaErrorRerunsOnTheWriter()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    const Divergent d = diverge(h);
    h.replica().faults().add(replication::FaultKind::Error, 1);
    QueryResult head = h.read(channelFilter(kChannel, 10));
    QCOMPARE(head.status, QueryResult::Status::Ok);
    QCOMPARE(head.route, std::string("writer"));
    QCOMPARE(head.routeReason, std::string("replica_error"));
    QVERIFY(RoutingHarness::contains(head, d.fresh));
    head = h.read(channelFilter(kChannel, 10)); // the fault was for one read only
    QCOMPARE(head.route, std::string("replica"));
    QCOMPARE(
        h.decisions(ReadPath::BridgeQuery, RouteDecisionLabel::Writer, RouteReason::ReplicaError),
        1u);
}

void TestRoutingEngine::statementTimeoutIsSurfacedNotRerun()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    diverge(h);
    h.replica().faults().add(replication::FaultKind::Timeout, 2);
    const QueryResult http = h.read(channelFilter(kChannel, 10));
    QCOMPARE(http.status, QueryResult::Status::TimedOut);
    QCOMPARE(http.message, std::string("query timed out"));
    QVERIFY(http.events.empty());
    catchUp(h);
    const QueryResult ws = h.read(channelFilter(kChannel, 10), ReadPath::ReqHistorical);
    QCOMPARE(ws.status, QueryResult::Status::TimedOut);
    // Never re-run on the writer: no writer decision was counted for either read.
    QCOMPARE(h.replicas().metrics().total(RouteDecisionLabel::Writer), 0u);
    QCOMPARE(h.decisions(ReadPath::BridgeQuery, RouteDecisionLabel::Replica,
                         RouteReason::StatementCancelled),
             1u);
    QCOMPARE(h.decisions(ReadPath::ReqHistorical, RouteDecisionLabel::Replica,
                         RouteReason::StatementCancelled),
             1u);
}

void TestRoutingEngine::busyReaderFallsBackExceptForHistory()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    const Divergent d = diverge(h);
    h.replica().faults().add(replication::FaultKind::Busy, 2);
    const QueryResult display = h.read(channelFilter(kChannel, 10));
    QCOMPARE(display.status, QueryResult::Status::Ok);
    QCOMPARE(display.route, std::string("writer"));
    QCOMPARE(display.routeReason, std::string("reader_acquire_timeout"));
    QVERIFY(RoutingHarness::contains(display, d.fresh));

    catchUp(h);
    const QueryResult history = h.read(channelFilter(kChannel, 10), ReadPath::ReqHistorical);
    QCOMPARE(history.status, QueryResult::Status::Retryable);
    QVERIFY2(history.message.rfind("retryable:", 0) == 0, history.message.c_str());
    QCOMPARE(h.decisions(ReadPath::ReqHistorical, RouteDecisionLabel::Rejected,
                         RouteReason::ReaderAcquireTimeout),
             1u);
}

void TestRoutingEngine::historyReadsAreCappedBelowThePool()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000, .lagMs = 0, .poolSize = 2});
    diverge(h);
    catchUp(h);
    QCOMPARE(h.replicas().config().historyReadCap(), 1);
    // Another subscription backfill holds the only history permit.
    QVERIFY(h.replicas().acquireHistoryPermit(std::chrono::milliseconds(0)));
    const QueryResult history = h.read(channelFilter(kChannel, 10), ReadPath::ReqHistorical);
    QCOMPARE(history.status, QueryResult::Status::Retryable);
    // Display reads still find a reader connection.
    const QueryResult display = h.read(channelFilter(kChannel, 10));
    QCOMPARE(display.route, std::string("replica"));
    h.replicas().releaseHistoryPermit();
    const QueryResult again = h.read(channelFilter(kChannel, 10), ReadPath::ReqHistorical);
    QCOMPARE(again.route, std::string("replica"));
}

void TestRoutingEngine::countsUseTheBoundedArmOnly()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    h.createChannel(kChannel);
    const std::int64_t t0 = h.nowSec();
    const std::string old = h.post(kChannel, t0 - 700, "old");
    h.advanceMs(1'000'000);
    h.beatAndReplay();
    h.advanceMs(2000); // past the budget, well inside the covered staleness bound
    const std::string coverable = "[{\"kinds\":[9],\"#h\":[\"" + kChannel + "\"],\"until\":"
        + std::to_string(t0) + ",\"before_id\":\"" + std::string(64, '0') + "\"}]";
    // A page can be covered...
    QCOMPARE(h.read(coverable).route, std::string("replica"));
    // ...but a count (or a count fallback that materialises rows) only ever uses the bounded arm.
    QueryResult count = h.count(coverable, ReadPath::BridgeCount);
    QCOMPARE(count.route, std::string("writer"));
    QCOMPARE(count.routeReason, std::string("stale"));
    QCOMPARE(count.count, 1);
    const QueryResult fallback = h.read(coverable, ReadPath::CountReqFallback);
    QCOMPARE(fallback.route, std::string("writer"));
    h.beatAndReplay();
    count = h.count(channelFilter(kChannel, 10), ReadPath::CountReq);
    QCOMPARE(count.route, std::string("replica"));
    QCOMPARE(count.routeReason, std::string("fresh"));
    Q_UNUSED(old);
}

void TestRoutingEngine::clockGoingBackRotatesTheEpoch()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    h.createChannel(kChannel);
    h.beatAndReplay();
    QCOMPARE(h.read(channelFilter(kChannel, 5)).route, std::string("replica"));
    h.clock->setOffsetMs(-60'000); // QA moves the relay's clock back a minute
    h.replicas().heartbeat(); // the writer notices: every retained entry is void
    QueryResult head = h.read(channelFilter(kChannel, 5));
    QCOMPARE(head.route, std::string("writer"));
    QCOMPARE(head.routeReason, std::string("reader_validation_error"));
    h.replay();
    head = h.read(channelFilter(kChannel, 5));
    QCOMPARE(head.route, std::string("replica"));
}

void TestRoutingEngine::metricsNameEveryDecision()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    diverge(h);
    h.read(channelFilter(kChannel, 10));
    h.advanceMs(5000);
    h.read(channelFilter(kChannel, 10), ReadPath::ReqHistorical);
    const std::string text = h.engine->metricsText();
    QVERIFY2(text.find("buzz_db_route_decision_total{path=\"bridge_query\",decision=\"replica\","
                       "reason=\"fresh\"} 1")
                 != std::string::npos,
             text.c_str());
    QVERIFY(text.find("buzz_db_route_decision_total{path=\"req_historical\",decision=\"writer\","
                      "reason=\"stale\"} 1")
            != std::string::npos);
    for (const char *gauge : {"buzz_db_read_pool_size{pool=\"replica-0\"} 4",
                              "buzz_db_read_pool_idle{pool=\"replica-0\"} 4",
                              "buzz_db_read_pool_active{pool=\"replica-0\"} 0",
                              "buzz_db_read_pool_max{pool=\"replica-0\"} 4"})
        QVERIFY2(text.find(gauge) != std::string::npos, gauge);
}

void TestRoutingEngine::readerStatementTimeoutInterrupts()
{
    // The reader statement timeout itself (not the injected fault): a runaway statement on a
    // replica connection is interrupted, which the router surfaces as "query timed out".
    if (relay::test::PgTestCluster::selected())
        QSKIP("SQLite replicas only: on PostgreSQL the server's own statement_timeout cancels the "
              "statement (test_routing_pg_failures)");
    replication::Replica::Config config;
    config.statementTimeout = std::chrono::milliseconds(20);
    std::string error;
    auto replica = replication::Replica::open(config, error);
    QVERIFY2(replica, error.c_str());
    auto lease = replica->acquire(std::chrono::milliseconds(150));
    QVERIFY(lease);
    auto runaway = lease->readerConnection().prepare(
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c");
    QVERIFY(runaway.valid());
    QVERIFY(!runaway.step());
    QCOMPARE(runaway.resultCode(), SQLITE_INTERRUPT);
    QVERIFY(lease->deadlineExceeded());
}

QTEST_GUILESS_MAIN(TestRoutingEngine)
#include "test_routing_engine.moc"
