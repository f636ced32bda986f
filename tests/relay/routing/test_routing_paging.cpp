// docs/architecture.md §The out-of-order commit counterexample: r1..r4 with r4 committed before r3,
// the replica replayed through r4 but not r3. Keyset walks through the routed path must still
// return r3, for thread pages (oldest first) and channel pages (newest first), at page sizes 1 and
// 2 — while pages the fence can prove still come from the replica.

#include "test_routing_support.h"

#include <QTest>

using namespace routingtest;

namespace {
const std::string kChannel = "7c0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d02";

struct Walk
{
    std::vector<std::string> ids;
    std::vector<std::string> routes; // "replica:covered", "writer:beyond_wall", …
};

Walk walkThread(RoutingHarness &h, const std::string &root, int limit)
{
    Walk walk;
    std::optional<std::int64_t> since;
    std::string afterId;
    for (int guard = 0; guard < 50; ++guard) {
        const QueryResult page =
            h.read(threadPage(kChannel, root, limit, since, afterId), ReadPath::BridgeThreadAux);
        if (page.status != QueryResult::Status::Ok)
            break;
        walk.routes.push_back(page.route + ":" + page.routeReason);
        for (const auto &stored : page.events)
            walk.ids.push_back(stored.event.id);
        if (static_cast<int>(page.events.size()) < limit)
            break;
        since = page.events.back().event.createdAt;
        afterId = page.events.back().event.id;
    }
    return walk;
}

Walk walkChannel(RoutingHarness &h, int limit)
{
    Walk walk;
    QueryResult page = h.read(channelFilter(kChannel, limit));
    for (int guard = 0; guard < 50 && page.status == QueryResult::Status::Ok; ++guard) {
        walk.routes.push_back(page.route + ":" + page.routeReason);
        for (const auto &stored : page.events)
            walk.ids.push_back(stored.event.id);
        if (static_cast<int>(page.events.size()) < limit)
            break;
        const auto &last = page.events.back().event;
        page = h.read(channelPage(kChannel, limit, last.createdAt, last.id));
    }
    return walk;
}

bool servedByReplica(const Walk &walk)
{
    return std::any_of(walk.routes.begin(), walk.routes.end(),
                       [](const std::string &route) { return route.rfind("replica:", 0) == 0; });
}
} // namespace

class TestRoutingPaging : public QObject
{
    Q_OBJECT

private slots:
    void threadWalkReturnsLateCommittedRow_data();
    void threadWalkReturnsLateCommittedRow();
    void channelWalkReturnsLateCommittedRow_data();
    void channelWalkReturnsLateCommittedRow();
    void threadWalkUnderMaximalLagCollectsEverything();
    void deletedRowReappearsOnlyWithinTheBound();
};

void TestRoutingPaging::threadWalkReturnsLateCommittedRow_data()
{
    QTest::addColumn<int>("limit");
    QTest::newRow("limit 1") << 1;
    QTest::newRow("limit 2") << 2;
}

void TestRoutingPaging::threadWalkReturnsLateCommittedRow()
{
    QFETCH(int, limit);
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    h.createChannel(kChannel);
    const std::int64_t t0 = h.nowSec();
    const std::string root = h.post(kChannel, t0 - 800, "root");
    const std::string r1 = h.reply(kChannel, root, t0 - 700, "r1");
    const std::string r2 = h.reply(kChannel, root, t0 - 600, "r2");
    const std::string r4 = h.reply(kChannel, root, t0 + 800, "r4"); // signed ahead, committed early
    QVERIFY(!r1.empty() && !r2.empty() && !r4.empty());
    h.advanceMs(1'000'000);
    h.beatAndReplay(); // the replica holds root, r1, r2, r4 and proves a wall ~t0 + 35
    h.replica().setPaused(true);
    const std::string r3 =
        h.reply(kChannel, root, t0 + 200, "r3"); // signed earlier, committed later
    QVERIFY(!r3.empty());

    const Walk walk = walkThread(h, root, limit);
    QCOMPARE(walk.ids, (std::vector<std::string> {r1, r2, r3, r4}));
    QVERIFY2(servedByReplica(walk), "pages below the wall should come from the replica");
    // The replica's page that would have skipped r3 was re-run on the writer.
    const bool rerun =
        std::any_of(walk.routes.begin(), walk.routes.end(), [](const std::string &route) {
            return route == "writer:beyond_wall" || route == "writer:short_page";
        });
    QVERIFY(rerun);
}

void TestRoutingPaging::channelWalkReturnsLateCommittedRow_data()
{
    QTest::addColumn<int>("limit");
    QTest::newRow("limit 1") << 1;
    QTest::newRow("limit 2") << 2;
}

void TestRoutingPaging::channelWalkReturnsLateCommittedRow()
{
    QFETCH(int, limit);
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    h.createChannel(kChannel);
    const std::int64_t t0 = h.nowSec();
    const std::string m1 = h.post(kChannel, t0 - 700, "m1");
    const std::string m2 = h.post(kChannel, t0 - 600, "m2");
    const std::string m4 = h.post(kChannel, t0 + 800, "m4");
    h.advanceMs(1'000'000);
    h.beatAndReplay();
    h.replica().setPaused(true);
    const std::string m3 = h.post(kChannel, t0 + 200, "m3");
    QVERIFY(!m3.empty());
    // The replica now lags by more than the budget: the head page cannot be proved fresh.
    h.advanceMs(1500);

    const Walk walk = walkChannel(h, limit);
    QCOMPARE(walk.ids, (std::vector<std::string> {m4, m3, m2, m1}));
    QCOMPARE(walk.routes.front(), std::string("writer:stale"));
    // The cursor page just below m4 would be served by the replica without m3: refused by the wall.
    QCOMPARE(walk.routes.at(1), std::string("writer:beyond_wall"));
    QVERIFY2(std::find(walk.routes.begin(), walk.routes.end(), "replica:covered")
                 != walk.routes.end(),
             "pages below the wall should come from the replica");
}

void TestRoutingPaging::threadWalkUnderMaximalLagCollectsEverything()
{
    // The PR's live check: the replica has no thread rows at all, every page under-fills there.
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    h.createChannel(kChannel);
    const std::int64_t t0 = h.nowSec();
    const std::string root = h.post(kChannel, t0 - 890, "root");
    h.beatAndReplay();
    h.replica().setPaused(true);
    std::vector<std::string> expected;
    for (int i = 0; i < 14; ++i)
        expected.push_back(h.reply(kChannel, root, t0 - 880 + i, "reply " + std::to_string(i)));
    const Walk walk = walkThread(h, root, 4);
    QCOMPARE(walk.ids, expected);
    QCOMPARE(walk.routes.front(),
             std::string("writer:short_page")); // the replica's empty page is a candidate end
}

void TestRoutingPaging::deletedRowReappearsOnlyWithinTheBound()
{
    RoutingHarness h({.replicas = 1, .budgetMs = 1000});
    h.createChannel(kChannel);
    const std::int64_t t0 = h.nowSec();
    const std::string doomed = h.post(kChannel, t0 - 700, "doomed");
    const std::string kept = h.post(kChannel, t0 - 650, "kept");
    h.advanceMs(1'000'000);
    h.beatAndReplay();
    h.replica().setPaused(true);
    QVERIFY(h.remove(doomed));

    // Covered page (one channel, until below the wall): served by the replica while its proof is
    // at most 30 s old, so the deleted row may still show — and only then.
    const std::string old = "[{\"kinds\":[9],\"#h\":[\"" + kChannel
        + "\"],\"until\":" + std::to_string(t0) + ",\"limit\":10}]";
    QueryResult page = h.read(old);
    QCOMPARE(page.route + ":" + page.routeReason, std::string("replica:covered"));
    QVERIFY(RoutingHarness::contains(page, doomed));
    h.advanceMs(30'000);
    page = h.read(old);
    QCOMPARE(page.route, std::string("replica"));
    QVERIFY(RoutingHarness::contains(page, doomed)); // exactly at the bound
    h.advanceMs(1);
    page = h.read(old);
    QCOMPARE(page.route + ":" + page.routeReason, std::string("writer:stale"));
    QVERIFY(!RoutingHarness::contains(page, doomed));
    QVERIFY(RoutingHarness::contains(page, kept));

    // Bounded head reads: the bound is the budget.
    h.replica().setPaused(false);
    h.beatAndReplay();
    h.replica().setPaused(true);
    const std::string late = h.post(kChannel, h.nowSec() - 100, "late");
    QVERIFY(h.remove(late));
    page = h.read(channelFilter(kChannel, 10));
    QCOMPARE(page.route, std::string("replica"));
    h.advanceMs(1001);
    page = h.read(channelFilter(kChannel, 10));
    QCOMPARE(page.route + ":" + page.routeReason, std::string("writer:stale"));
    QVERIFY(!RoutingHarness::contains(page, late));
}

QTEST_GUILESS_MAIN(TestRoutingPaging)
#include "test_routing_paging.moc"
