// Exact-pair hydration: bounded batches validated before a connection is taken, exact
// (id, created_at) matching, scoping, and a plan that only ever searches events_by_id (SQLite) or
// reads only the requested months (PostgreSQL, EXPLAIN ANALYZE under custom and generic plans).

#include "test_search_support.h"

#include "relay/search/ExactPairHydrator.h"
#include "relay/search/ExactPairLookup.h"
#include "relay/store/postgres/PgConnection.h"
#include "relay/store/postgres/PgExactPairLookup.h"
#include "relay/store/postgres/PgReadConnection.h"
#include "relay/store/postgres/PgSchema.h"
#include "relay/store/sqlite/SqliteConnection.h"
#include "relay/store/sqlite/SqliteExactPairLookup.h"
#include "relay/store/sqlite/SqliteReadConnection.h"

#include <QTest>

#include <algorithm>
#include <set>

using namespace searchtest;
using buzz::relay::search::EventPair;
using buzz::relay::search::ExactPairHydrator;
using buzz::relay::search::ExactPairLookup;
using buzz::relay::search::HydrationResult;

namespace {
std::vector<std::string> idsOf(const HydrationResult &result)
{
    std::vector<std::string> ids;
    for (const auto &stored : result.events)
        ids.push_back(stored.event.id);
    return ids;
}

std::vector<std::string> planOf(store::SqliteConnection &connection, const std::string &sql,
                                const std::string &json)
{
    std::vector<std::string> details;
    auto explain = connection.prepare("EXPLAIN QUERY PLAN " + sql);
    explain.bindStatic(1, kCommunity);
    explain.bindStatic(2, json);
    while (explain.step())
        details.emplace_back(explain.text(3));
    return details;
}

// The month partitions a PostgreSQL plan read and those it never executed (EXPLAIN ANALYZE).
struct Months
{
    std::set<std::string> executed;
    std::set<std::string> skipped;
    std::string text;
};

Months monthsOf(store::PgConnection &connection, const std::string &explain,
                const store::PgParams &params)
{
    Months months;
    const store::PgResult plan = connection.run(explain, params);
    if (!plan.ok()) {
        months.text = plan.message();
        return months;
    }
    for (int row = 0; row < plan.rows(); ++row) {
        const std::string line(plan.text(row, 0));
        months.text += line + "\n";
        const auto on = line.find(" on events_");
        if (on == std::string::npos)
            continue;
        const auto end = line.find(' ', on + 4);
        const std::string partition = line.substr(on + 4, end - on - 4);
        if (line.find("(never executed)") != std::string::npos)
            months.skipped.insert(partition);
        else
            months.executed.insert(partition);
    }
    return months;
}

// hydrate(community, ids, created_at) with the pairs as constants (EXECUTE takes no parameters;
// a generic plan is made without their values either way).
std::string executeArguments(const std::vector<EventPair> &pairs)
{
    std::string ids, times;
    for (const EventPair &pair : pairs) {
        ids += (ids.empty() ? "'\\x" : ", '\\x") + pair.id + "'";
        times += (times.empty() ? "to_timestamp(" : ", to_timestamp(")
            + std::to_string(pair.createdAt) + ")";
    }
    return "hydrate('" + kCommunity + "', ARRAY[" + ids + "]::bytea[], ARRAY[" + times
        + "]::timestamptz[])";
}

bool anyContains(const std::vector<std::string> &lines, const std::string &needle)
{
    return std::any_of(lines.begin(), lines.end(), [&](const std::string &line) {
        return line.find(needle) != std::string::npos;
    });
}
} // namespace

class TestSearchHydration : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_store = std::make_unique<StoreHarness>();
        QVERIFY(m_store->isOpen());
        m_hydrator = std::make_unique<ExactPairHydrator>(*m_store->router);
    }
    void cleanup()
    {
        m_hydrator.reset();
        m_store.reset();
    }

    void sqliteHasFts5()
    {
        if (!m_store->database)
            QSKIP("SQLite's full-text index (this is a PostgreSQL run)");
        store::ConnectionLease lease = m_store->database->leaseWriterConnection();
        store::SqliteConnection &connection = store::SqliteReadConnection::of(lease);
        auto options = connection.prepare("PRAGMA compile_options");
        bool fts5 = false;
        while (options.step())
            fts5 = fts5 || options.text(0) == "ENABLE_FTS5";
        QVERIFY(fts5);
        auto table = connection.prepare(
            "SELECT 1 FROM sqlite_master WHERE name = 'search_fts' AND sql LIKE '%fts5%'");
        QVERIFY(table.step());
    }

    void crossMonthPairsComeBackInRequestOrder()
    {
        const auto jan = m_store->insert(kJan2026 + 10, "january");
        const auto jun = m_store->insert(kJun2026 + 20, "june");
        const auto nov = m_store->insert(kNov2026 + 30, "november");
        const std::vector<EventPair> pairs = {StoreHarness::pairOf(nov), StoreHarness::pairOf(jan),
                                              StoreHarness::pairOf(jun)};
        const auto result =
            m_hydrator->hydrateExactPairs(kCommunity, pairs, ReadPath::BridgeSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::Ok));
        QCOMPARE(idsOf(result), (std::vector<std::string> {nov.id, jan.id, jun.id}));
        QCOMPARE(result.events[1].event.createdAt, kJan2026 + 10);
        QCOMPARE(result.events[1].json, jan.toJson());
    }

    void otherCommunityDeletedAndMissingHitsAreOmitted()
    {
        const auto kept = m_store->insert(kJun2026, "kept");
        const auto elsewhere = m_store->insert(kJun2026 + 1, "elsewhere", 9, "other-community");
        const auto deleted = m_store->insert(kJun2026 + 2, "deleted");
        QVERIFY(m_store->softDelete(deleted));
        const auto missing = m_store->sign(kJun2026 + 3, "never stored");
        const std::vector<EventPair> pairs = {
            StoreHarness::pairOf(elsewhere), StoreHarness::pairOf(deleted),
            StoreHarness::pairOf(missing), StoreHarness::pairOf(kept)};
        const auto result =
            m_hydrator->hydrateExactPairs(kCommunity, pairs, ReadPath::BridgeSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::Ok));
        QCOMPARE(idsOf(result), std::vector<std::string> {kept.id});
        // The same pair is found in its own community.
        const auto other =
            m_hydrator->hydrateExactPairs("other-community", pairs, ReadPath::BridgeSearchHydrate);
        QCOMPARE(idsOf(other), std::vector<std::string> {elsewhere.id});
    }

    void twoEventsInTheSameSecondAreTellApart()
    {
        const auto first = m_store->insert(kNov2026, "first");
        const auto second = m_store->insert(kNov2026, "second");
        auto result = m_hydrator->hydrateExactPairs(
            kCommunity, std::vector {StoreHarness::pairOf(second)}, ReadPath::ReqSearchHydrate);
        QCOMPARE(idsOf(result), std::vector<std::string> {second.id});
        result = m_hydrator->hydrateExactPairs(
            kCommunity, std::vector {StoreHarness::pairOf(first), StoreHarness::pairOf(second)},
            ReadPath::ReqSearchHydrate);
        QCOMPARE(idsOf(result), (std::vector<std::string> {first.id, second.id}));
    }

    void duplicatePairsDoNotMultiplyResults()
    {
        const auto event = m_store->insert(kJun2026, "once");
        const auto other = m_store->insert(kJun2026 + 5, "twice");
        const std::vector<EventPair> pairs = {
            StoreHarness::pairOf(event), StoreHarness::pairOf(other), StoreHarness::pairOf(event),
            StoreHarness::pairOf(event)};
        const auto result =
            m_hydrator->hydrateExactPairs(kCommunity, pairs, ReadPath::BridgeSearchHydrate);
        QCOMPARE(idsOf(result), (std::vector<std::string> {event.id, other.id}));
    }

    void emptyBatchTakesNoConnection()
    {
        std::atomic<int> &reads = m_store->router->reads;
        reads = 0;
        const auto result =
            m_hydrator->hydrateExactPairs(kCommunity, {}, ReadPath::BridgeSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::Ok));
        QVERIFY(result.events.empty());
        QCOMPARE(reads.load(), 0);
    }

    void invalidBatchesAreRefusedBeforeAConnectionIsTaken_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<qint64>("createdAt");
        QTest::addColumn<QString>("message");
        QTest::newRow("short id") << QString(63, 'a') << qint64(kJun2026)
                                  << "invalid event id at pair 1";
        QTest::newRow("upper-case id")
            << QString(64, 'A') << qint64(kJun2026) << "invalid event id at pair 1";
        QTest::newRow("non-hex id")
            << QString(64, 'g') << qint64(kJun2026) << "invalid event id at pair 1";
        QTest::newRow("negative created_at")
            << QString(64, 'a') << qint64(-1) << "invalid created_at at pair 1";
    }
    void invalidBatchesAreRefusedBeforeAConnectionIsTaken()
    {
        QFETCH(QString, id);
        QFETCH(qint64, createdAt);
        QFETCH(QString, message);
        const auto good = m_store->insert(kJun2026, "good");
        std::atomic<int> &reads = m_store->router->reads;
        reads = 0;
        const std::vector<EventPair> pairs = {StoreHarness::pairOf(good),
                                              {id.toStdString(), createdAt}};
        const auto result =
            m_hydrator->hydrateExactPairs(kCommunity, pairs, ReadPath::BridgeSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::Invalid));
        QVERIFY2(result.message.find(message.toStdString()) == 0, result.message.c_str());
        QVERIFY(result.events.empty()); // never a partial answer
        QCOMPARE(reads.load(), 0);
    }

    void fiveHundredAndOnePairsAreRefused()
    {
        std::vector<EventPair> pairs;
        for (int i = 0; i < 501; ++i)
            pairs.push_back(
                {std::string(60, '0') + QString::number(i).rightJustified(4, '0').toStdString(),
                 kJun2026 + i});
        std::atomic<int> &reads = m_store->router->reads;
        reads = 0;
        const auto result =
            m_hydrator->hydrateExactPairs(kCommunity, pairs, ReadPath::BridgeSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::Invalid));
        QCOMPARE(result.message, std::string("too many event pairs: 501 (max 500)"));
        QCOMPARE(reads.load(), 0);
        // 501 pairs are refused even when they are duplicates of fewer distinct pairs.
        std::vector<EventPair> repeated(501, pairs.front());
        QCOMPARE(
            int(m_hydrator->hydrateExactPairs(kCommunity, repeated, ReadPath::BridgeSearchHydrate)
                    .status),
            int(HydrationResult::Status::Invalid));
    }

    void exactlyFiveHundredPairsAreServed()
    {
        std::vector<EventPair> pairs;
        for (int i = 0; i < 500; ++i)
            pairs.push_back(StoreHarness::pairOf(m_store->insert(kJan2026 + i * 86'400, "bulk")));
        std::atomic<int> &reads = m_store->router->reads;
        reads = 0;
        const auto result =
            m_hydrator->hydrateExactPairs(kCommunity, pairs, ReadPath::BridgeSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::Ok));
        QCOMPARE(result.events.size(), std::size_t(500));
        QCOMPARE(result.events.front().event.id, pairs.front().id);
        QCOMPARE(result.events.back().event.id, pairs.back().id);
        QCOMPARE(reads.load(), 1); // one bounded lookup, not one per pair
    }

    void wrongTimestampDecoyNeverMatches()
    {
        const auto a = m_store->insert(kJan2026, "alpha");
        const auto b = m_store->insert(kNov2026, "bravo");
        // An existing id with the wrong created_at.
        auto result = m_hydrator->hydrateExactPairs(
            kCommunity, std::vector<EventPair> {{a.id, a.createdAt + 1}},
            ReadPath::BridgeSearchHydrate);
        QCOMPARE(int(result.status), int(HydrationResult::Status::Ok));
        QVERIFY(result.events.empty());
        // Crossed timestamps: an "ids IN (...) AND created_at IN (...)" cross product would find
        // both; exact pairs find neither.
        result = m_hydrator->hydrateExactPairs(
            kCommunity, std::vector<EventPair> {{a.id, b.createdAt}, {b.id, a.createdAt}},
            ReadPath::BridgeSearchHydrate);
        QVERIFY(result.events.empty());
        // The ID-only lookup stays available and does find them.
        const std::vector<std::string> ids = {a.id, b.id};
        result = m_hydrator->hydrateIds(kCommunity, ids, ReadPath::BridgeSearchHydrate);
        QCOMPARE(idsOf(result), ids);
    }

    void planSearchesTheTimeIndexAndNeverScansEvents_data()
    {
        QTest::addColumn<int>("pairs");
        QTest::newRow("1 pair") << 1;
        QTest::newRow("500 pairs") << 500;
    }
    void planSearchesTheTimeIndexAndNeverScansEvents()
    {
        if (!m_store->database)
            QSKIP("SQLite's plan (this is a PostgreSQL run: planReadsOnlyTheRequestedMonths)");
        QFETCH(int, pairs);
        std::vector<EventPair> wanted;
        for (int i = 0; i < 600; ++i) {
            const auto event = m_store->insert(kJan2026 + i * 3'600, "row");
            if (i < pairs)
                wanted.push_back(StoreHarness::pairOf(event));
        }
        // With statistics SQLite will happily build a Bloom filter by scanning the inner table
        // (what a VALUES join got): the plan must hold once ANALYZE has run.
        {
            auto tx = m_store->database->beginWrite(kCommunity, 1);
            QVERIFY(tx && tx->connection().exec("ANALYZE") && tx->commit(1));
        }
        store::ConnectionLease lease = m_store->database->leaseWriterConnection();
        QVERIFY(lease);
        store::SqliteConnection &connection = store::SqliteReadConnection::of(lease);
        using store::SqliteExactPairLookup;
        for (const auto deleted :
             {SqliteExactPairLookup::Deleted::Omit, SqliteExactPairLookup::Deleted::Include}) {
            const auto plan = planOf(connection, SqliteExactPairLookup::pairSql(deleted),
                                     SqliteExactPairLookup::pairsJson(wanted));
            const std::string joined = [&] {
                std::string text;
                for (const auto &line : plan)
                    text += line + " | ";
                return text;
            }();
            QVERIFY2(anyContains(plan, "SEARCH e USING INDEX events_by_id (community=? AND id=?)"),
                     joined.c_str());
            QVERIFY2(!anyContains(plan, "SCAN e"), joined.c_str());
            QVERIFY2(!anyContains(plan, "SCAN events"), joined.c_str());
            QVERIFY2(!anyContains(plan, "BLOOM FILTER"), joined.c_str());
        }
        // And the statement that plan belongs to finds exactly the pairs.
        std::vector<StoredEvent> rows;
        QVERIFY(SqliteExactPairLookup::findPairs(connection, kCommunity, wanted,
                                                 SqliteExactPairLookup::Deleted::Omit, rows)
                    .ok);
        QCOMPARE(rows.size(), std::size_t(pairs));
    }

    void idOnlyLookupSearchesTheIdIndex()
    {
        if (!m_store->database)
            QSKIP("SQLite's plan (this is a PostgreSQL run)");
        for (int i = 0; i < 600; ++i)
            m_store->insert(kJan2026 + i, "row");
        {
            auto tx = m_store->database->beginWrite(kCommunity, 1);
            QVERIFY(tx && tx->connection().exec("ANALYZE") && tx->commit(1));
        }
        store::ConnectionLease lease = m_store->database->leaseWriterConnection();
        const auto plan = planOf(store::SqliteReadConnection::of(lease),
                                 store::SqliteExactPairLookup::idSql(), "[]");
        QVERIFY(anyContains(plan, "SEARCH e USING INDEX events_by_id (community=? AND id=?)"));
        QVERIFY(!anyContains(plan, "SCAN e"));
        QVERIFY(!anyContains(plan, "BLOOM FILTER"));
    }

    void planReadsOnlyTheRequestedMonths_data()
    {
        QTest::addColumn<int>("pairs");
        QTest::addColumn<QString>("planMode");
        for (const int pairs : {1, 500}) {
            for (const char *mode : {"force_custom_plan", "force_generic_plan"})
                QTest::addRow("%d pairs, %s", pairs, mode) << pairs << QString(mode);
        }
    }
    void planReadsOnlyTheRequestedMonths()
    {
        // The seed's own check: EXPLAIN ANALYZE of the production hydration statement reads only
        // the months of the requested pairs, under forced custom and generic plans, up to the
        // full batch of 500 distinct pairs. Rows are spread over eight months; the pairs name
        // two of them (March and August 2026).
        if (!m_store->postgres)
            QSKIP("PostgreSQL's month partitions (this is an SQLite run)");
        QFETCH(int, pairs);
        QFETCH(QString, planMode);
        std::vector<EventPair> wanted;
        std::set<std::string> wantedMonths;
        constexpr std::int64_t kDay = 86'400;
        for (int i = 0; i < 800; ++i) {
            // Eight months, one hundred rows each, the first day of each month on.
            const std::int64_t month = store::PgSchema::monthStart(kJan2026, i / 100);
            const auto event = m_store->insert(month + (i % 100) * 600, "row");
            const std::string name = store::PgSchema::monthName(month);
            const bool requested = name == "events_p2026_03" || name == "events_p2026_08";
            if (requested && int(wanted.size()) < pairs) {
                wanted.push_back(StoreHarness::pairOf(event));
                wantedMonths.insert(name);
            }
        }
        // 500 pairs: the 200 rows of the two months and 300 that exist nowhere, in those months.
        for (int i = 0; int(wanted.size()) < pairs; ++i)
            wanted.push_back(
                {m_store->sign(kJan2026 + 60 * kDay + i, "absent").id, kJan2026 + 60 * kDay + i});
        QCOMPARE(int(wanted.size()), pairs);
        store::ConnectionLease lease = m_store->postgres->leaseWriterConnection();
        QVERIFY(lease);
        store::PgConnection &connection = store::PgReadConnection::of(lease);
        QVERIFY(connection.execOk("ANALYZE events"));
        QVERIFY(connection.execOk("SET plan_cache_mode = " + planMode.toStdString()));
        using store::PgExactPairLookup;
        for (const auto deleted :
             {PgExactPairLookup::Deleted::Omit, PgExactPairLookup::Deleted::Include}) {
            // A named prepared statement, run through EXPLAIN EXECUTE: the plan the cache makes
            // for it under that plan_cache_mode is the one shown.
            connection.exec("DEALLOCATE hydrate"); // from an earlier row, if any
            QVERIFY(connection.execOk("PREPARE hydrate (text, bytea[], timestamptz[]) AS "
                                      + PgExactPairLookup::pairSql(deleted)));
            const Months months =
                monthsOf(connection,
                         "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE "
                             + executeArguments(wanted),
                         {});
            QVERIFY2(months.executed == wantedMonths, months.text.c_str());
            QVERIFY2(!months.skipped.empty(), months.text.c_str()); // the others are in the plan
            for (const std::string &month :
                 {std::string("events_p2026_01"), std::string("events_p2026_05")})
                QVERIFY2(!months.executed.count(month), months.text.c_str());
        }
        QVERIFY(connection.execOk("DEALLOCATE hydrate"));
        QVERIFY(connection.execOk("RESET plan_cache_mode"));
        // And the statement that plan belongs to finds exactly the stored pairs.
        std::vector<StoredEvent> rows;
        QVERIFY(PgExactPairLookup::findPairs(connection, kCommunity, wanted,
                                             PgExactPairLookup::Deleted::Omit, rows)
                    .ok);
        QCOMPARE(rows.size(), std::size_t(std::min(pairs, 200)));
    }

    void withoutReplicasHydrationRunsOnTheWriter()
    {
        const auto event = m_store->insert(kJun2026, "writer");
        const auto result = m_hydrator->hydrateExactPairs(
            kCommunity, std::vector {StoreHarness::pairOf(event)}, ReadPath::ProfileSearchHydrate);
        QCOMPARE(result.route, std::string("writer"));
        QCOMPARE(result.routeReason, std::string("disabled"));
    }

private:
    std::unique_ptr<StoreHarness> m_store;
    std::unique_ptr<ExactPairHydrator> m_hydrator;
};

QTEST_GUILESS_MAIN(TestSearchHydration)
#include "test_search_hydration.moc"
