// The schema keeps exactly the indexes some query needs: each index on events is proved here by
// the plan of the statement the relay really runs (FilterSql for filters, the store's own lookups
// captured as they execute), and a new index fails indexesAreExactlyThoseProvedHere until it is
// proved too. Plans are taken without ANALYZE statistics, as the relay runs.

#include "net/nostr/Filter.h"
#include "relay/store/sqlite/SqliteConnection.h"
#include "relay/store/sqlite/SqliteEventReader.h"
#include "relay/store/sqlite/SqliteFilterSql.h"
#include "relay/store/sqlite/SqliteSchema.h"

#include <QTest>

#include <set>
#include <string>
#include <vector>

using namespace buzz;
using namespace buzz::relay;

namespace {

const std::string kCommunity = "local";
const std::string kChannel = "0b0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d01";
const std::string kPubkey(64, 'a');
const std::string kId(64, 'b');

// The plan of one statement, one line per step.
std::string planOf(store::SqliteConnection &connection, const std::string &sql)
{
    auto explain = connection.prepare("EXPLAIN QUERY PLAN " + sql);
    if (!explain.valid())
        return "(does not compile: " + connection.lastError() + ")";
    std::string details;
    while (explain.step())
        details += std::string(explain.text(3)) + "\n";
    return details;
}

std::string filterPlan(store::SqliteConnection &connection, const std::string &json,
                       store::SqliteFilterSql::Mode mode = store::SqliteFilterSql::Mode::Page)
{
    const auto filter = nostr::Filter::fromJson(std::string_view(json));
    if (!filter)
        return "(bad filter: " + filter.error() + ")";
    const auto plan =
        store::SqliteFilterSql::build(filter.value(), kCommunity, kPubkey, {kChannel}, mode);
    return planOf(connection, plan.sql);
}

// The plans of every statement `call` runs on `connection`.
template<class Call>
std::string plansOfCall(store::SqliteConnection &connection, Call call)
{
    std::vector<std::string> statements;
    sqlite3_trace_v2(
        connection.handle(), SQLITE_TRACE_STMT,
        [](unsigned, void *context, void *, void *sql) {
            const char *text = static_cast<const char *>(sql);
            if (text && std::string_view(text).substr(0, 2) != "--")
                static_cast<std::vector<std::string> *>(context)->emplace_back(text);
            return 0;
        },
        &statements);
    call();
    sqlite3_trace_v2(connection.handle(), 0, nullptr, nullptr);
    std::string plans;
    for (const auto &sql : statements)
        plans += planOf(connection, sql);
    return plans;
}

bool uses(const std::string &plan, const std::string &step)
{
    return plan.find(step) != std::string::npos;
}

} // namespace

class TestStoreSchema : public QObject
{
    Q_OBJECT

    std::unique_ptr<store::SqliteConnection> m_db;

private slots:
    void init()
    {
        std::string error;
        m_db =
            store::SqliteConnection::open(":memory:", store::SqliteConnection::Role::Writer, error);
        QVERIFY2(m_db, error.c_str());
        QVERIFY2(store::SqliteSchema::apply(*m_db, {}, &error), error.c_str());
    }

    void indexesAreExactlyThoseProvedHere()
    {
        auto names = m_db->prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND "
                                   "tbl_name = 'events' ORDER BY name");
        std::set<std::string> indexes;
        while (names.step())
            indexes.emplace(names.text(0));
        QCOMPARE(indexes,
                 (std::set<std::string> {"events_by_address", "events_by_channel_kind",
                                         "events_by_channel_time", "events_by_id", "events_by_kind",
                                         "events_by_pubkey"}));
    }

    void byIdReadsSearchTheIdIndex()
    {
        const std::string plan =
            filterPlan(*m_db, "{\"ids\":[\"" + kId + "\"],\"kinds\":[9,40100]}");
        QVERIFY2(uses(plan, "SEARCH e USING INDEX events_by_id (community=? AND id=?)"),
                 plan.c_str());
        store::SqliteEventReader reader(*m_db);
        const std::string lookup = plansOfCall(*m_db, [&] { reader.findById(kCommunity, kId); });
        QVERIFY2(uses(lookup, "SEARCH e USING INDEX events_by_id (community=? AND id=?)"),
                 lookup.c_str());
    }

    void kindReadsSearchTheKindIndexInOrder()
    {
        // Channel metadata and other kind lists without a channel.
        const std::string plan = filterPlan(*m_db, "{\"kinds\":[39000],\"limit\":50}");
        QVERIFY2(uses(plan, "USING INDEX events_by_kind (community=? AND kind=?)"), plan.c_str());
        QVERIFY2(!uses(plan, "TEMP B-TREE"), plan.c_str());
    }

    void authorReadsSearchThePubkeyIndex()
    {
        // Profiles of a list of authors, and the replaceable-event lookup of ingest.
        const std::string plan =
            filterPlan(*m_db, "{\"kinds\":[0],\"authors\":[\"" + kPubkey + "\"]}");
        QVERIFY2(uses(plan, "USING INDEX events_by_pubkey (community=? AND pubkey=? AND kind=?)"),
                 plan.c_str());
        QVERIFY2(!uses(plan, "TEMP B-TREE"), plan.c_str());
        store::SqliteEventReader reader(*m_db);
        const std::string lookup = plansOfCall(
            *m_db, [&] { reader.liveReplaceable(kCommunity, 0, kPubkey, std::nullopt); });
        QVERIFY2(uses(lookup, "USING INDEX events_by_pubkey (community=? AND pubkey=? AND kind=?)"),
                 lookup.c_str());
        QVERIFY2(!uses(lookup, "TEMP B-TREE"), lookup.c_str());
    }

    void addressableLookupSearchesTheAddressIndex()
    {
        store::SqliteEventReader reader(*m_db);
        const std::string lookup = plansOfCall(
            *m_db, [&] { reader.liveReplaceable(kCommunity, 39000, kPubkey, kChannel); });
        QVERIFY2(uses(lookup,
                      "USING INDEX events_by_address (community=? AND kind=? AND "
                      "pubkey=? AND d_tag=?)"),
                 lookup.c_str());
    }

    void canvasReadsSearchTheChannelKindIndexInOrder()
    {
        // The canvas head (docs/buzz-protocol.md §Current canvas) and a history page.
        for (const std::string &json :
             {"{\"kinds\":[40100],\"#h\":[\"" + kChannel + "\"],\"limit\":1}",
              "{\"kinds\":[40100],\"#h\":[\"" + kChannel
                  + "\"],\"limit\":50,\"until\":1790000000,\"before_id\":\"" + kId + "\"}"}) {
            const std::string plan = filterPlan(*m_db, json);
            QVERIFY2(uses(plan,
                          "USING INDEX events_by_channel_kind (community=? AND channel=? "
                          "AND kind=?"),
                     plan.c_str());
            QVERIFY2(!uses(plan, "TEMP B-TREE"), plan.c_str());
        }
        store::SqliteEventReader reader(*m_db);
        const std::string head =
            plansOfCall(*m_db, [&] { reader.canvasHead(kCommunity, kChannel); });
        QVERIFY2(uses(head,
                      "USING INDEX events_by_channel_kind (community=? AND channel=? AND "
                      "kind=?)"),
                 head.c_str());
    }

    void channelScrollBackSearchesTheChannelTimeIndexInOrder()
    {
        // The desktop client's scroll-back: eleven kinds of one channel, newest first, 100 a page
        // (docs/buzz-protocol.md §Storage and ordering). Per-kind ranges would have to be merged
        // and sorted.
        const std::string plan = filterPlan(
            *m_db,
            "{\"kinds\":[5,7,9005,9,40002,45001,45003,40001,40003,40008,40099],\"#h\":[\""
                + kChannel + "\"],\"limit\":100,\"until\":1790000000}");
        QVERIFY2(uses(plan, "USING INDEX events_by_channel_time (community=? AND channel=?"),
                 plan.c_str());
        QVERIFY2(!uses(plan, "TEMP B-TREE"), plan.c_str());
    }

    void tagReadsSearchTheTagTable()
    {
        const std::string plan =
            filterPlan(*m_db, "{\"kinds\":[1],\"#t\":[\"nostr\"],\"limit\":20}");
        QVERIFY2(uses(plan, "event_tags USING PRIMARY KEY (community=? AND name=? AND value=?)"),
                 plan.c_str());
    }

    void threadReadsSearchTheThreadIndex()
    {
        const std::string plan =
            filterPlan(*m_db, "{\"kinds\":[9],\"#e\":[\"" + kId + "\"],\"depth_limit\":3}",
                       store::SqliteFilterSql::Mode::Thread);
        QVERIFY2(
            uses(plan, "USING INDEX thread_by_root (community=? AND root_id=?)")
                || uses(plan, "USING COVERING INDEX thread_by_root (community=? AND root_id=?)"),
            plan.c_str());
        QVERIFY2(uses(plan, "SEARCH e USING INDEX events_by_id (community=? AND id=?)"),
                 plan.c_str());
    }
};

QTEST_GUILESS_MAIN(TestStoreSchema)
#include "test_store_schema.moc"
