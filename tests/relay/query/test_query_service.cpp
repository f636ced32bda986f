// Reads at the engine level: ordering, cursors, limits, gates, access, isolation, counting, and
// that the canvas head read is served by an index.

#include "test_engine_support.h"

#include "relay/store/sqlite/SqliteConnection.h"
#include "relay/store/sqlite/SqliteFilterSql.h"
#include "relay/store/sqlite/SqliteSchema.h"

#include <QTest>

#include <set>

using namespace enginetest;

class TestEngineQuery : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<EngineHarness> h;
    Identity alice;
    Identity bob;

    std::string channelFilter(const std::string &extra = {}, const char *channel = kChannelA)
    {
        return "[{\"kinds\":[9],\"#h\":[\"" + std::string(channel) + "\"]" + extra + "}]";
    }

private slots:
    void init()
    {
        h = std::make_unique<EngineHarness>();
        QVERIFY(!h->createChannel(alice, kChannelA).empty());
    }

    void orderIsCreatedAtDescThenIdAsc()
    {
        std::vector<nostr::Event> events;
        for (int i = 0; i < 6; ++i) {
            events.push_back(
                alice.sign(9, h->now - (i / 2), {{"h", kChannelA}}, "m" + std::to_string(i)));
            QVERIFY(h->submit(alice, events.back()).accepted());
        }
        const auto rows = h->query(alice, channelFilter());
        QCOMPARE(int(rows.size()), 6);
        for (std::size_t i = 1; i < rows.size(); ++i) {
            const auto &a = rows[i - 1].event;
            const auto &b = rows[i].event;
            QVERIFY(a.createdAt > b.createdAt || (a.createdAt == b.createdAt && a.id < b.id));
        }
        QCOMPARE(rows.front().json, rows.front().event.toJson());
    }

    void sinceUntilInclusiveAndKeysetCursor()
    {
        for (int i = 0; i < 10; ++i)
            QVERIFY(
                h->submit(alice,
                          alice.sign(9, h->now - i, {{"h", kChannelA}}, "m" + std::to_string(i)))
                    .accepted());
        const auto window = h->query(alice,
                                     channelFilter(",\"since\":" + std::to_string(h->now - 3)
                                                   + ",\"until\":" + std::to_string(h->now - 1)));
        QCOMPARE(int(window.size()), 3);
        // Page through with limit 3 and until + before_id: every row exactly once.
        std::set<std::string> seen;
        std::string cursor;
        int pages = 0;
        while (true) {
            const auto page = h->query(alice, channelFilter(",\"limit\":3" + cursor));
            for (const auto &row : page)
                QVERIFY(seen.insert(row.event.id).second);
            ++pages;
            if (page.size() < 3)
                break;
            cursor = ",\"until\":" + std::to_string(page.back().event.createdAt)
                + ",\"before_id\":\"" + page.back().event.id + "\"";
        }
        QCOMPARE(int(seen.size()), 10);
        QCOMPARE(pages, 4);
    }

    void keysetCursorWithinOneSecond()
    {
        for (int i = 0; i < 5; ++i)
            QVERIFY(h->submit(alice,
                              alice.sign(9, h->now, {{"h", kChannelA}}, "same" + std::to_string(i)))
                        .accepted());
        std::set<std::string> seen;
        std::string cursor;
        for (int i = 0; i < 5; ++i) {
            const auto page = h->query(alice, channelFilter(",\"limit\":1" + cursor));
            QCOMPARE(int(page.size()), 1);
            QVERIFY(seen.insert(page.front().event.id).second);
            cursor = ",\"until\":" + std::to_string(page.front().event.createdAt)
                + ",\"before_id\":\"" + page.front().event.id + "\"";
        }
        QVERIFY(h->query(alice, channelFilter(",\"limit\":1" + cursor)).empty());
    }

    void limitClampsTo1000()
    {
        for (int i = 0; i < 1005; ++i)
            QVERIFY(h->submit(alice, alice.sign(1, h->now - (i % 800), {}, "n" + std::to_string(i)))
                        .accepted());
        QCOMPARE(int(h->query(alice, "[{\"kinds\":[1]}]").size()), 1000);
        QCOMPARE(int(h->query(alice, "[{\"kinds\":[1],\"limit\":5000}]").size()), 1000);
        QCOMPARE(int(h->query(alice, "[{\"kinds\":[1],\"limit\":7}]").size()), 7);
        QVERIFY(h->query(alice, "[{\"kinds\":[]}]").empty());
        auto counted = h->runQuery(alice, "[{\"kinds\":[1]}]");
        auto filters = nostr::Filter::listFromJson("[{\"kinds\":[1]},{\"kinds\":[1],\"limit\":1}]");
        const auto count = h->engine->count(filters.value(), alice.http(), ReadPath::BridgeCount);
        QCOMPARE(count.count, 2010); // summed across filters, not de-duplicated
    }

    void httpConcatenatesWsDeduplicates()
    {
        QVERIFY(h->submit(alice, alice.sign(9, h->now, {{"h", kChannelA}}, "one")).accepted());
        const std::string twice = "[{\"kinds\":[9],\"#h\":[\"" + std::string(kChannelA)
            + "\"]},{\"kinds\":[9],\"#h\":[\"" + kChannelA + "\"]}]";
        QCOMPARE(int(h->query(alice, twice, ReadPath::BridgeQuery).size()), 2);
        QCOMPARE(int(h->query(alice, twice, ReadPath::ReqHistorical).size()), 1);
    }

    void pGateOnHttp()
    {
        const auto result = h->runQuery(alice, "[{\"#h\":[\"" + std::string(kChannelA) + "\"]}]");
        QCOMPARE(int(result.status), int(QueryResult::Status::Forbidden));
        QCOMPARE(result.message,
                 std::string("restricted: p-gated kinds require #p tag matching your pubkey"));
        const auto own =
            h->runQuery(alice, "[{\"kinds\":[44100],\"#p\":[\"" + alice.pubkey() + "\"]}]");
        QCOMPARE(int(own.status), int(QueryResult::Status::Ok));
        const auto other =
            h->runQuery(alice, "[{\"kinds\":[44100],\"#p\":[\"" + bob.pubkey() + "\"]}]");
        QCOMPARE(int(other.status), int(QueryResult::Status::Forbidden));
    }

    void inaccessibleChannelYieldsNothing()
    {
        QVERIFY(!h->createChannel(alice, kChannelB, "private").empty());
        QVERIFY(h->submit(alice, alice.sign(9, h->now, {{"h", kChannelB}}, "secret")).accepted());
        QVERIFY(h->submit(alice, alice.sign(9, h->now, {{"h", kChannelA}}, "public")).accepted());
        QVERIFY(h->query(bob, channelFilter({}, kChannelB)).empty());
        QCOMPARE(int(h->query(alice, channelFilter({}, kChannelB)).size()), 1);
        // A global read drops rows of channels the viewer cannot read.
        const auto global = h->query(bob, "[{\"kinds\":[9]}]");
        QCOMPARE(int(global.size()), 1);
        QCOMPARE(global.front().event.content, std::string("public"));
        // WS admission.
        auto filters = nostr::Filter::listFromJson(channelFilter({}, kChannelB));
        QCOMPARE(h->engine->admitSubscription(filters.value(), bob.ws()),
                 AdmissionResult(std::string("restricted: not a channel member")));
        QCOMPARE(h->engine->admitSubscription(filters.value(), alice.ws()), AdmissionResult());
        auto global44100 = nostr::Filter::listFromJson("[{\"kinds\":[44100]}]");
        QCOMPARE(h->engine->admitSubscription(global44100.value(), bob.ws()),
                 AdmissionResult(
                     std::string("restricted: p-gated events require #p matching your pubkey")));
    }

    void communitiesAreIsolated()
    {
        QVERIFY(h->submit(alice, alice.sign(1, h->now, {}, "in local")).accepted());
        QVERIFY(h->submit(alice, alice.sign(9, h->now, {{"h", kChannelA}}, "chan")).accepted());
        QVERIFY(
            h->query(alice, "[{\"kinds\":[1,9,9007,39000,40099]}]", ReadPath::BridgeQuery, "other")
                .empty());
        QVERIFY(!h->engine->canRead("other", kChannelA, alice.pubkey()));
        // The same UUID can be created independently in another community.
        QVERIFY(!h->createChannel(bob, kChannelA, "open", "other").empty());
        const auto note = alice.sign(1, h->now + 1, {}, "same event, two communities");
        QVERIFY(h->submit(alice, note, Transport::Http, "local").accepted());
        QCOMPARE(int(h->submit(alice, note, Transport::Http, "other").status),
                 int(IngestResult::Status::Stored));
    }

    void hTagMatchesLiteralString()
    {
        QVERIFY(h->submit(alice, alice.sign(9, h->now, {{"h", kChannelA}}, "lower")).accepted());
        std::string upper = QString(kChannelA).toUpper().toStdString();
        // The relay post-matches the literal h string: an upper-case filter finds nothing.
        QVERIFY(h->query(alice, "[{\"kinds\":[9],\"#h\":[\"" + upper + "\"]}]").empty());
    }

    void canvasHeadReadUsesTheChannelIndex()
    {
        for (int i = 0; i < 50; ++i)
            QVERIFY(h->submit(alice,
                              alice.sign(40100, h->now - i, {{"h", kChannelA}},
                                         "# r" + std::to_string(i)))
                        .accepted());
        const auto head = h->query(
            alice, "[{\"kinds\":[40100],\"#h\":[\"" + std::string(kChannelA) + "\"],\"limit\":1}]");
        QCOMPARE(int(head.size()), 1);
        QCOMPARE(head.front().event.content, std::string("# r0"));

        // The plan of the exact SQL the head read runs: an index search, never a scan or a sort.
        std::string error;
        auto db =
            store::SqliteConnection::open(":memory:", store::SqliteConnection::Role::Writer, error);
        QVERIFY(db);
        QVERIFY(store::SqliteSchema::apply(*db));
        auto filter = nostr::Filter::fromJson(std::string_view(
            "{\"kinds\":[40100],\"#h\":[\"" + std::string(kChannelA) + "\"],\"limit\":1}"));
        QVERIFY(filter);
        const auto plan =
            store::SqliteFilterSql::build(filter.value(), "local", alice.pubkey(), {kChannelA},
                                          store::SqliteFilterSql::Mode::Page);
        auto explain = db->prepare("EXPLAIN QUERY PLAN " + plan.sql);
        QVERIFY(explain.valid());
        plan.bindTo(explain);
        std::string details;
        while (explain.step())
            details += std::string(explain.text(3)) + "\n";
        qInfo() << details.c_str();
        QVERIFY(details.find("USING INDEX events_by_channel_kind") != std::string::npos);
        QVERIFY(details.find("SCAN e") == std::string::npos);
        QVERIFY(details.find("TEMP B-TREE") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestEngineQuery)
#include "test_query_service.moc"
