// Permission decisions read the writer: a member removed on the writer can no longer read a
// private channel through a lagging replica that still lists them, on any routed read (/query
// with and without #h, several #h, /count, REQ history), while the rows themselves still come
// from the replica.

#include "test_routing_support.h"

#include <QtTest>

using namespace routingtest;

namespace {
const std::string kPrivate = "7c0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d77";
const std::string kOpen = "7c0e4c9e-1f2a-4b3c-8d4e-5f6a7b8c9d78";
} // namespace

class TestRoutingAccess : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<RoutingHarness> h;
    Identity bob;
    std::string secret;

    QueryResult readAs(const Identity &who, const std::string &filters, ReadPath path)
    {
        const auto parsed = nostr::Filter::listFromJson(filters);
        return h->engine->query(parsed.value(),
                                RequestContext {"local", who.pubkey(), Transport::Http}, path);
    }
    QueryResult countAs(const Identity &who, const std::string &filters)
    {
        const auto parsed = nostr::Filter::listFromJson(filters);
        return h->engine->count(parsed.value(),
                                RequestContext {"local", who.pubkey(), Transport::Http},
                                ReadPath::BridgeCount);
    }

private slots:
    void init()
    {
        h = std::make_unique<RoutingHarness>(HarnessOptions {.replicas = 1, .budgetMs = 30000});
        bob = Identity {};
        QVERIFY(h->submit(h->owner,
                          h->owner.sign(
                              9007, h->nowSec(),
                              {{"h", kPrivate}, {"name", "secret"}, {"visibility", "private"}}))
                    .accepted());
        QVERIFY(!h->createChannel(kOpen).empty());
        QVERIFY(h->submit(h->owner,
                          h->owner.sign(9000, h->nowSec(), {{"h", kPrivate}, {"p", bob.pubkey()}}))
                    .accepted());
        secret = h->post(kPrivate, h->nowSec() - 5, "the plan");
        QVERIFY(!secret.empty());
        QVERIFY(!h->post(kOpen, h->nowSec() - 5, "public").empty());
        h->beatAndReplay(); // the replica now holds the channel, the message and bob's membership
        h->replica().setPaused(true);
        // Removed on the writer; the paused replica still lists bob as a member.
        QVERIFY(h->submit(h->owner,
                          h->owner.sign(9001, h->nowSec(), {{"h", kPrivate}, {"p", bob.pubkey()}}))
                    .accepted());
        QVERIFY(!h->engine->canRead("local", kPrivate, bob.pubkey()));
    }

    void channelReadIsRefusedThoughTheReplicaServes()
    {
        const auto page = readAs(bob, channelFilter(kPrivate, 10), ReadPath::BridgeQuery);
        QCOMPARE(int(page.status), int(QueryResult::Status::Ok));
        QVERIFY(!RoutingHarness::contains(page, secret));
        QCOMPARE(page.events.size(), std::size_t(0));
    }

    void globalAndMultiChannelReadsOmitTheChannel()
    {
        for (const std::string &filters :
             {std::string("[{\"kinds\":[9],\"limit\":50}]"),
              "[{\"kinds\":[9],\"#h\":[\"" + kPrivate + "\",\"" + kOpen + "\"],\"limit\":50}]"}) {
            for (const ReadPath path : {ReadPath::BridgeQuery, ReadPath::ReqHistorical}) {
                const auto page = readAs(bob, filters, path);
                QCOMPARE(int(page.status), int(QueryResult::Status::Ok));
                QVERIFY2(!RoutingHarness::contains(page, secret), filters.c_str());
                QCOMPARE(page.events.size(), std::size_t(1)); // the open channel's message
                QCOMPARE(page.route, std::string("replica")); // rows still from the replica
            }
        }
    }

    void countOmitsTheChannel()
    {
        const auto counted = countAs(bob, "[{\"kinds\":[9],\"#h\":[\"" + kPrivate + "\"]}]");
        QCOMPARE(counted.count, std::int64_t(0));
        const auto all = countAs(bob, "[{\"kinds\":[9]}]");
        QCOMPARE(all.count, std::int64_t(1));
        QCOMPARE(all.route, std::string("replica"));
    }

    void memberStillReadsThroughTheReplica()
    {
        // The owner's access is unchanged: the same reads return the private message.
        const auto page = readAs(h->owner, "[{\"kinds\":[9],\"limit\":50}]", ReadPath::BridgeQuery);
        QVERIFY(RoutingHarness::contains(page, secret));
        QCOMPARE(page.route, std::string("replica"));
    }
};

QTEST_GUILESS_MAIN(TestRoutingAccess)
#include "test_routing_access.moc"
