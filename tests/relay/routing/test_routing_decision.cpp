// The routing decision as a table: caller class × query shape × budget × replica proof → pool,
// arm and reason. Each row is one sentence of the design (docs/architecture.md §Which reads route,
// §Route arms).

#include "relay/replication/ScopePositions.h"
#include "relay/routing/RoutePolicy.h"

#include <QTest>

using namespace buzz::relay;

Q_DECLARE_METATYPE(buzz::relay::ReadPath)
Q_DECLARE_METATYPE(buzz::relay::RouteArm)
Q_DECLARE_METATYPE(buzz::relay::RouteReason)
Q_DECLARE_METATYPE(buzz::relay::ReplicaProof::State)
Q_DECLARE_METATYPE(buzz::relay::OutcomeAction)
Q_DECLARE_METATYPE(buzz::relay::ReplicaOutcome)

namespace {
constexpr qint64 kNowMs = 1'800'000'000'000;
constexpr qint64 kNowSec = kNowMs / 1000;
constexpr qint64 kNone = -1;
// A wall 20 minutes back: pages older than it are coverable.
constexpr qint64 kWall = kNowSec - 1200;

// Shape shorthands.
enum Shape {
    Head,
    HeadPinned,
    UntilPinned,
    OldCursor,
    NewCursor,
    UnscopedCursor,
    ThreadOld,
    ThreadNew,
    Metadata,
    Unscoped,
    OldUntilPinned
};

ReadShape makeShape(Shape shape)
{
    ReadShape s;
    switch (shape) {
    case Head: // {"kinds":[9]} no channel
        break;
    case HeadPinned: // {"kinds":[40100],"#h":[c],"limit":1}
        s.pinsOneChannel = s.channelRowsOnly = true;
        break;
    case UntilPinned: // #h + until recent, no before_id
        s.pinsOneChannel = s.channelRowsOnly = true;
        s.until = kNowSec - 10;
        break;
    case OldUntilPinned: // #h + until below the wall
        s.pinsOneChannel = s.channelRowsOnly = true;
        s.until = kWall - 1;
        break;
    case OldCursor: // #h + until + before_id, below the wall
        s.pinsOneChannel = s.channelRowsOnly = s.keysetContinuation = true;
        s.until = kWall;
        break;
    case NewCursor: // #h + until + before_id, above the wall
        s.pinsOneChannel = s.channelRowsOnly = s.keysetContinuation = true;
        s.until = kWall + 1;
        break;
    case UnscopedCursor: // authors + until + before_id, no channel
        s.keysetContinuation = true;
        s.until = kWall - 100;
        break;
    case ThreadOld: // #h + #e root + depth_limit, since below the wall
        s.channelRowsOnly = s.threadPage = s.pinsOneChannel = true;
        s.since = kWall - 100;
        break;
    case ThreadNew: // since above the wall
        s.channelRowsOnly = s.threadPage = s.pinsOneChannel = true;
        s.since = kWall + 1;
        break;
    case Metadata: // kinds:[39000] or no kinds
        s.touchesChannelMetadata = s.pinsOneChannel = s.channelRowsOnly = true;
        break;
    case Unscoped:
        break;
    }
    return s;
}
} // namespace

class TestRoutingDecision : public QObject
{
    Q_OBJECT

private slots:
    void decide_data();
    void decide();
    void rotatesAcrossReplicasAndReportsFirstReason();
    void subscriptionHistoryNeedsItsLivePosition();
    void scopePositionsRememberEachScopesLastCommit();
    void outcome_data();
    void outcome();
    void threadPageVerification_data();
    void threadPageVerification();
    void budgetClamp();
    void shapeFromFilter();
};

void TestRoutingDecision::decide_data()
{
    QTest::addColumn<ReadPath>("path");
    QTest::addColumn<bool>("strong");
    QTest::addColumn<int>("shape");
    QTest::addColumn<qint64>("budgetMs");
    QTest::addColumn<ReplicaProof::State>("state");
    QTest::addColumn<qint64>("ageMs");
    QTest::addColumn<int>("replica");
    QTest::addColumn<RouteArm>("arm");
    QTest::addColumn<RouteReason>("reason");

    using P = ReadPath;
    using A = RouteArm;
    using R = RouteReason;
    const auto ok = ReplicaProof::State::Proved;
    auto row = [](const char *name, P path, bool strong, Shape shape, qint64 budget,
                  ReplicaProof::State state, qint64 age, int replica, A arm, R reason) {
        QTest::newRow(name) << path << strong << int(shape) << budget << state << age << replica
                            << arm << reason;
    };
    // Kill switch: budget 0 turns routing off, every caller on the writer.
    row("off: head", P::BridgeQuery, false, HeadPinned, 0, ok, 0, -1, A::Bounded, R::Disabled);
    row("off: old cursor", P::BridgeQuery, false, OldCursor, 0, ok, 0, -1, A::Covered, R::Disabled);
    row("off: thread", P::BridgeThreadAux, false, ThreadOld, 0, ok, 0, -1, A::CoveredPostVerified,
        R::Disabled);
    // bridge_query: routed on the bounded arm for head reads.
    row("bridge head fresh", P::BridgeQuery, false, HeadPinned, 1000, ok, 400, 0, A::Bounded,
        R::Fresh);
    row("bridge head at budget", P::BridgeQuery, false, HeadPinned, 1000, ok, 1000, 0, A::Bounded,
        R::Fresh);
    row("bridge head stale", P::BridgeQuery, false, HeadPinned, 1000, ok, 1001, -1, A::Bounded,
        R::Stale);
    row("bridge unscoped head fresh", P::BridgeQuery, false, Head, 1000, ok, 10, 0, A::Bounded,
        R::Fresh);
    // consistency:strong and channel metadata never leave the writer.
    row("strong", P::BridgeQuery, true, HeadPinned, 1000, ok, 0, -1, A::Bounded, R::Strong);
    row("strong old cursor", P::BridgeQuery, true, OldCursor, 1000, ok, 0, -1, A::Covered,
        R::Strong);
    row("strong count", P::BridgeCount, true, HeadPinned, 1000, ok, 0, -1, A::Bounded, R::Strong);
    row("metadata bridge", P::BridgeQuery, false, Metadata, 1000, ok, 0, -1, A::Bounded,
        R::ChannelMetadata);
    row("metadata req", P::ReqHistorical, false, Metadata, 1000, ok, 0, -1, A::Bounded,
        R::ChannelMetadata);
    // req_historical: routed like bridge_query.
    row("req head fresh", P::ReqHistorical, false, HeadPinned, 1000, ok, 0, 0, A::Bounded,
        R::Fresh);
    row("req head stale", P::ReqHistorical, false, HeadPinned, 1000, ok, 5000, -1, A::Bounded,
        R::Stale);
    // Pinned + until (no keyset cursor): covered first, else bounded.
    row("pinned until old: covered even when stale for budget", P::BridgeQuery, false,
        OldUntilPinned, 1000, ok, 5000, 0, A::BoundedOrCovered, R::Covered);
    row("pinned until new: bounded", P::BridgeQuery, false, UntilPinned, 1000, ok, 500, 0,
        A::BoundedOrCovered, R::Fresh);
    row("pinned until new: stale", P::BridgeQuery, false, UntilPinned, 1000, ok, 2000, -1,
        A::BoundedOrCovered, R::Stale);
    row("pinned until old: entry past 30 s, fresh fails too", P::BridgeQuery, false, OldUntilPinned,
        1000, ok, 30001, -1, A::BoundedOrCovered, R::Stale);
    // Keyset continuation: content proof only, never a time bound.
    row("cursor below wall", P::BridgeQuery, false, OldCursor, 1000, ok, 20000, 0, A::Covered,
        R::Covered);
    row("cursor above wall even when fresh", P::BridgeQuery, false, NewCursor, 1000, ok, 0, -1,
        A::Covered, R::BeyondWall);
    row("cursor entry past staleness", P::ReqHistorical, false, OldCursor, 1000, ok, 30001, -1,
        A::Covered, R::Stale);
    row("cursor without channel", P::BridgeQuery, false, UnscopedCursor, 1000, ok, 0, -1,
        A::Covered, R::NotChannelScoped);
    // Thread pages: covered, verified after serving.
    row("thread aux old", P::BridgeThreadAux, false, ThreadOld, 1000, ok, 20000, 0,
        A::CoveredPostVerified, R::Covered);
    row("thread via bridge", P::BridgeQuery, false, ThreadOld, 1000, ok, 0, 0,
        A::CoveredPostVerified, R::Covered);
    row("thread starting beyond wall", P::BridgeThreadAux, false, ThreadNew, 1000, ok, 0, -1,
        A::CoveredPostVerified, R::BeyondWall);
    row("thread stale entry", P::BridgeThreadAux, false, ThreadOld, 1000, ok, 30001, -1,
        A::CoveredPostVerified, R::Stale);
    row("thread unscoped", P::BridgeThreadAux, false, Unscoped, 1000, ok, 0, -1,
        A::CoveredPostVerified, R::NotChannelScoped);
    // Counts, count fallbacks and hydration: bounded arm only, even for a coverable cursor.
    row("bridge count fresh", P::BridgeCount, false, HeadPinned, 1000, ok, 10, 0, A::Bounded,
        R::Fresh);
    row("count req stale", P::CountReq, false, HeadPinned, 1000, ok, 1500, -1, A::Bounded,
        R::Stale);
    row("bridge count fallback never covered", P::BridgeCountFallback, false, OldCursor, 1000, ok,
        5000, -1, A::Bounded, R::Stale);
    row("count req fallback fresh", P::CountReqFallback, false, OldCursor, 1000, ok, 10, 0,
        A::Bounded, R::Fresh);
    row("hydration bounded", P::BridgeSearchHydrate, false, Head, 1000, ok, 10, 0, A::Bounded,
        R::Fresh);
    // Proof failures.
    row("uninitialized", P::BridgeQuery, false, HeadPinned, 1000,
        ReplicaProof::State::Uninitialized, 0, -1, A::Bounded, R::Uninitialized);
    row("token behind", P::BridgeQuery, false, HeadPinned, 1000, ReplicaProof::State::TokenBehind,
        0, -1, A::Bounded, R::ReaderTokenBehind);
    row("epoch mismatch", P::BridgeQuery, false, HeadPinned, 1000,
        ReplicaProof::State::ValidationError, 0, -1, A::Bounded, R::ReaderValidationError);
    // Clamp happens before; a future entry (clock moved back) counts as age 0, not negative.
    row("entry in the future", P::BridgeQuery, false, HeadPinned, 1, ok, -5000, 0, A::Bounded,
        R::Fresh);
}

void TestRoutingDecision::decide()
{
    QFETCH(ReadPath, path);
    QFETCH(bool, strong);
    QFETCH(int, shape);
    QFETCH(qint64, budgetMs);
    QFETCH(ReplicaProof::State, state);
    QFETCH(qint64, ageMs);
    QFETCH(int, replica);
    QFETCH(RouteArm, arm);
    QFETCH(RouteReason, reason);

    const ReplicaProof proof {state, kNowMs - ageMs, kWall};
    const RouteRequest request {path, strong, makeShape(Shape(shape))};
    const RouteDecision decision = RoutePolicy::decide(request, budgetMs, kNowMs, {&proof, 1});
    QCOMPARE(decision.replica, replica);
    QCOMPARE(toLabel(decision.arm), toLabel(arm));
    QCOMPARE(toLabel(decision.reason), toLabel(reason));
    if (decision.onReplica())
        QCOMPARE(decision.fenceWallSec, kWall);
}

void TestRoutingDecision::rotatesAcrossReplicasAndReportsFirstReason()
{
    const ReplicaProof proofs[] = {
        {ReplicaProof::State::Proved, kNowMs - 5000, kWall}, // stale for a 1 s budget
        {ReplicaProof::State::Uninitialized, 0, 0}, // not usable
        {ReplicaProof::State::Proved, kNowMs - 100, kWall}, // fresh
    };
    const RouteRequest head {ReadPath::BridgeQuery, false, makeShape(HeadPinned)};
    QCOMPARE(RoutePolicy::decide(head, 1000, kNowMs, proofs, 0).replica, 2);
    QCOMPARE(RoutePolicy::decide(head, 1000, kNowMs, proofs, 1).replica, 2);
    QCOMPARE(RoutePolicy::decide(head, 1000, kNowMs, proofs, 2).replica, 2);
    // With a budget that makes replica 0 fresh too, the start index picks.
    QCOMPARE(RoutePolicy::decide(head, 10000, kNowMs, proofs, 0).replica, 0);
    QCOMPARE(RoutePolicy::decide(head, 10000, kNowMs, proofs, 1).replica, 2);
    // Nobody fresh: writer, with the reason of the replica tried first.
    const RouteDecision none = RoutePolicy::decide(head, 50, kNowMs, proofs, 1);
    QCOMPARE(none.replica, -1);
    QCOMPARE(toLabel(none.reason), std::string_view("uninitialized"));
    // No replica configured: routing is off whatever the budget.
    QCOMPARE(toLabel(RoutePolicy::decide(head, 1000, kNowMs, {}).reason),
             std::string_view("disabled"));
}

void TestRoutingDecision::subscriptionHistoryNeedsItsLivePosition()
{
    // A subscription's history asks for the commit position its scopes had reached when it went
    // live (livePosition); a replica that has applied less misses a commit, however fresh.
    ReplicaProof proof {ReplicaProof::State::Proved, kNowMs - 100, kWall, 41};
    RouteRequest head {ReadPath::ReqHistorical, false, makeShape(HeadPinned), 42};
    RouteDecision decision = RoutePolicy::decide(head, 3000, kNowMs, {&proof, 1});
    QCOMPARE(decision.replica, -1);
    QCOMPARE(toLabel(decision.reason), std::string_view("not_caught_up"));
    head.livePosition = 41;
    decision = RoutePolicy::decide(head, 3000, kNowMs, {&proof, 1});
    QCOMPARE(decision.replica, 0);
    QCOMPARE(toLabel(decision.reason), std::string_view("fresh"));
    // A proof past the budget is stale first.
    const ReplicaProof old {ReplicaProof::State::Proved, kNowMs - 5000, kWall, 41};
    head.livePosition = 42;
    QCOMPARE(toLabel(RoutePolicy::decide(head, 3000, kNowMs, {&old, 1}).reason),
             std::string_view("stale"));
    // A content proof holds every row below its wall, whenever committed: no token needed.
    for (const Shape shape : {OldUntilPinned, OldCursor}) {
        const RouteRequest covered {ReadPath::ReqHistorical, false, makeShape(shape), 42};
        decision = RoutePolicy::decide(covered, 3000, kNowMs, {&proof, 1});
        QCOMPARE(decision.replica, 0);
        QCOMPARE(toLabel(decision.reason), std::string_view("covered"));
    }
    // Pinned + a recent until falls back to the time bound, and with it to the token.
    const RouteRequest recent {ReadPath::ReqHistorical, false, makeShape(UntilPinned), 42};
    QCOMPARE(toLabel(RoutePolicy::decide(recent, 3000, kNowMs, {&proof, 1}).reason),
             std::string_view("not_caught_up"));
}

void TestRoutingDecision::scopePositionsRememberEachScopesLastCommit()
{
    using Scope = buzz::relay::ReadRequest::LiveScope;
    const auto kinds = [](std::vector<int> list) {
        return std::optional<std::vector<int>>(std::move(list));
    };
    buzz::relay::replication::ScopePositions scopes;
    QCOMPARE(scopes.required("local", Scope {{"c1"}, true, {}}), 0); // nothing committed yet
    scopes.committed("local", std::string("C1"), 40100, false, 10); // channels compare lower-case
    scopes.committed("local", std::string("c1"), 9, false, 12);
    scopes.committed("local", std::string("c2"), 9, false, 13);
    scopes.committed("local", std::nullopt, 0, false, 11); // a row outside channels
    scopes.committed("local", std::string("c2"), 9, false, 12); // positions never go back
    QCOMPARE(scopes.required("local", Scope {{"c1"}, false, kinds({40100})}), 10);
    QCOMPARE(scopes.required("local", Scope {{"c1"}, false, kinds({40100, 9})}), 12);
    QCOMPARE(scopes.required("local", Scope {{"c1"}, false, {}}), 12); // every kind
    QCOMPARE(scopes.required("local", Scope {{"c1", "c2"}, false, kinds({9})}), 13);
    QCOMPARE(scopes.required("local", Scope {{"c3"}, false, {}}), 0);
    QCOMPARE(scopes.required("local", Scope {{}, true, kinds({0})}), 11);
    QCOMPARE(scopes.required("local", Scope {{}, true, kinds({1})}), 0);
    QCOMPARE(scopes.required("other", Scope {{"c2"}, true, {}}), 0); // another community's own
    // A deletion changes a row of another kind: every kind of its channel asks for it.
    scopes.committed("local", std::string("c1"), 5, true, 14);
    QCOMPARE(scopes.required("local", Scope {{"c1"}, false, kinds({40100})}), 14);
    QCOMPARE(scopes.required("local", Scope {{"c2"}, false, kinds({9})}), 13);
    // Entries every replica has applied are dropped once the map has grown to 1,024; a dropped
    // scope still asks for what every replica had applied then.
    const std::size_t before = scopes.size();
    for (int channel = 0; channel < 505; ++channel) // two entries each: the kind and any kind
        scopes.committed("local", "x" + std::to_string(channel), 9, false, 20);
    QCOMPARE(scopes.size(), before + 1010);
    scopes.setAppliedByAll(20);
    for (int channel = 0; channel < 3; ++channel) // past 1,024 entries
        scopes.committed("local", "y" + std::to_string(channel), 9, false, 30);
    QCOMPARE(scopes.size(), std::size_t(6)); // only the y channels' entries are left
    QCOMPARE(scopes.required("local", Scope {{"c2", "x5"}, true, {}}), 20);
    QCOMPARE(scopes.required("local", Scope {{"y0"}, false, kinds({9})}), 30);
}

void TestRoutingDecision::outcome_data()
{
    QTest::addColumn<ReadPath>("path");
    QTest::addColumn<ReplicaOutcome>("outcome");
    QTest::addColumn<OutcomeAction>("action");
    QTest::addColumn<QString>("reason");
    using O = ReplicaOutcome;
    using A = OutcomeAction;
    QTest::newRow("ok") << ReadPath::BridgeQuery << O::Ok << A::Serve << "fresh";
    QTest::newRow("error re-runs")
        << ReadPath::BridgeQuery << O::Error << A::RerunOnWriter << "replica_error";
    QTest::newRow("history error re-runs")
        << ReadPath::ReqHistorical << O::Error << A::RerunOnWriter << "replica_error";
    QTest::newRow("timeout surfaced http") << ReadPath::BridgeQuery << O::StatementTimeout
                                           << A::SurfaceTimeout << "statement_cancelled";
    QTest::newRow("timeout surfaced ws") << ReadPath::ReqHistorical << O::StatementTimeout
                                         << A::SurfaceTimeout << "statement_cancelled";
    QTest::newRow("timeout surfaced count")
        << ReadPath::CountReq << O::StatementTimeout << A::SurfaceTimeout << "statement_cancelled";
    QTest::newRow("busy bridge → writer") << ReadPath::BridgeQuery << O::AcquireTimeout
                                          << A::RerunOnWriter << "reader_acquire_timeout";
    QTest::newRow("busy count → writer") << ReadPath::BridgeCount << O::AcquireTimeout
                                         << A::RerunOnWriter << "reader_acquire_timeout";
    QTest::newRow("busy history → retryable") << ReadPath::ReqHistorical << O::AcquireTimeout
                                              << A::RejectRetryable << "reader_acquire_timeout";
    QTest::newRow("missing root") << ReadPath::BridgeThreadAux << O::MissingRoot << A::RerunOnWriter
                                  << "missing_root";
}

void TestRoutingDecision::outcome()
{
    QFETCH(ReadPath, path);
    QFETCH(ReplicaOutcome, outcome);
    QFETCH(OutcomeAction, action);
    QFETCH(QString, reason);
    const OutcomeRule rule = RoutePolicy::onOutcome(path, outcome);
    QCOMPARE(int(rule.action), int(action));
    QCOMPARE(QString::fromUtf8(toLabel(rule.reason)), reason);
}

void TestRoutingDecision::threadPageVerification_data()
{
    QTest::addColumn<int>("served");
    QTest::addColumn<int>("limit");
    QTest::addColumn<qint64>("newest");
    QTest::addColumn<OutcomeAction>("action");
    QTest::addColumn<QString>("reason");
    using A = OutcomeAction;
    QTest::newRow("full page below wall") << 2 << 2 << kWall << A::Serve << "covered";
    QTest::newRow("full page past wall")
        << 2 << 2 << kWall + 1 << A::RerunOnWriter << "beyond_wall";
    QTest::newRow("short page is a candidate end")
        << 1 << 2 << kWall - 500 << A::RerunOnWriter << "short_page";
    QTest::newRow("empty page") << 0 << 2 << kNone << A::RerunOnWriter << "short_page";
    QTest::newRow("no limit") << 5 << 0 << kWall - 500 << A::RerunOnWriter << "short_page";
}

void TestRoutingDecision::threadPageVerification()
{
    QFETCH(int, served);
    QFETCH(int, limit);
    QFETCH(qint64, newest);
    QFETCH(OutcomeAction, action);
    QFETCH(QString, reason);
    const OutcomeRule rule = RoutePolicy::verifyThreadPage(
        std::size_t(served), limit > 0 ? std::optional<int>(limit) : std::nullopt,
        newest == kNone ? std::nullopt : std::optional<std::int64_t>(newest), kWall);
    QCOMPARE(int(rule.action), int(action));
    QCOMPARE(QString::fromUtf8(toLabel(rule.reason)), reason);
}

void TestRoutingDecision::budgetClamp()
{
    QCOMPARE(clampReadBudgetMs(0), 0);
    QCOMPARE(clampReadBudgetMs(-3), 0);
    QCOMPARE(clampReadBudgetMs(1000), 1000);
    QCOMPARE(clampReadBudgetMs(30000), 30000);
    QCOMPARE(clampReadBudgetMs(30001), 30000);
    QCOMPARE(clampReadBudgetMs(600000), 30000);
}

void TestRoutingDecision::shapeFromFilter()
{
    buzz::nostr::Filter filter;
    filter.kinds = std::vector<int> {40100};
    filter.tags['h'] = {"c1"};
    filter.limit = 1;
    ReadShape shape = ReadShape::of(filter);
    QVERIFY(shape.pinsOneChannel && shape.channelRowsOnly);
    QVERIFY(!shape.touchesChannelMetadata && !shape.keysetContinuation && !shape.threadPage);

    filter.until = 100;
    filter.beforeId = std::string(64, 'a');
    QVERIFY(ReadShape::of(filter).keysetContinuation);

    filter.kinds = std::vector<int> {9, 39000};
    QVERIFY(ReadShape::of(filter).touchesChannelMetadata);
    filter.kinds.reset(); // ID-only / no kinds: may touch metadata
    QVERIFY(ReadShape::of(filter).touchesChannelMetadata);

    buzz::nostr::Filter thread;
    thread.tags['e'] = {std::string(64, 'b')};
    thread.depthLimit = 2;
    thread.since = 50;
    thread.afterId = std::string(64, 'c');
    shape = ReadShape::of(thread);
    QVERIFY(shape.threadPage && shape.keysetContinuation);
    QVERIFY(!shape.touchesChannelMetadata); // a reply never is channel metadata
    QVERIFY(!shape.channelRowsOnly); // unless the engine scopes it to the root's channel
    QCOMPARE(toLabel(RoutePolicy::armFor({ReadPath::BridgeQuery, false, shape})),
             std::string_view("covered_post_verified"));
}

QTEST_GUILESS_MAIN(TestRoutingDecision)
#include "test_routing_decision.moc"
