// NIP-50 search end to end: POST /query and WS REQ with `search`, scoping, profile-name
// search, one-shot WS semantics, and channel-create replay detection on the exact pair.

#include "RelayTestFixture.h"
#include "RelayTestFixtureHttpClient.h"
#include "RelayTestFixtureWsClient.h"
#include "test_search_support.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace buzz;
using namespace buzz::relay;
using namespace buzz::relay::test;
using searchtest::filters;
using searchtest::idsOf;

namespace {
std::vector<std::string> idsOf(const nlohmann::json &array)
{
    std::vector<std::string> ids;
    if (array.is_array()) {
        for (const auto &event : array)
            ids.push_back(event.value("id", ""));
    }
    return ids;
}
} // namespace

class TestSearchE2e : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<RelayTestFixture> m_relay;
    TestIdentity m_alice;
    TestIdentity m_bob;
    std::string m_open;

    nostr::Event post(const TestIdentity &who, const std::string &channel, const std::string &text,
                      std::int64_t ago = 0, int kind = 9)
    {
        auto event = who.sign(kind, m_relay->now() - ago, {{"h", channel}}, text);
        const auto result = m_relay->engine().ingest(
            event, {RelayServer::kDefaultCommunity, who.pubkey(), Transport::Http});
        if (!result.accepted())
            qWarning() << "ingest refused:" << result.message.c_str();
        return event;
    }

    QueryResult search(const TestIdentity &who, const std::string &json,
                       ReadPath path = ReadPath::BridgeQuery,
                       const std::string &community = RelayServer::kDefaultCommunity)
    {
        return m_relay->engine().query(filters(json), {community, who.pubkey(), Transport::Http},
                                       path);
    }

private slots:
    void init();
    void cleanup();
    void httpSearchRequiresEveryWordAndRanksByRelevance();
    void httpSearchPageIsLimitOr100CappedAt500();
    void searchIsScopedToReadableChannelsAndTheCommunity();
    void deletedMessagesVanishFromSearch();
    void everyHitIsReMatchedAgainstItsFilter();
    void profileNameSearchFindsFlattenedNames();
    void httpSearchIgnoresNonSearchFiltersAndAppliesTheGates();
    void wsSearchIsOneShotResultsThenEose();
    void metricsCountSearches();
    void channelCreateReplayIsRecognisedByTheExactPair();
};

void TestSearchE2e::init()
{
    m_relay = std::make_unique<RelayTestFixture>();
    QVERIFY(m_relay->isListening());
    m_open = m_relay->createChannel(m_alice, "general");
    QVERIFY(!m_open.empty());
}

void TestSearchE2e::cleanup()
{
    m_relay.reset();
}

void TestSearchE2e::httpSearchRequiresEveryWordAndRanksByRelevance()
{
    const auto plan = post(m_alice, m_open, "deploy rollback plan for friday", 30);
    const auto rollback = post(m_alice, m_open, "rollback rollback rollback", 20);
    post(m_alice, m_open, "lunch menu", 10);
    HttpTestClient http(*m_relay, &m_alice.key);
    auto reply = http.query(R"([{"kinds":[9],"search":"rollback plan"}])");
    QCOMPARE(reply.status, 200);
    QCOMPARE(idsOf(reply.json()), std::vector<std::string> {plan.id});
    reply = http.query(R"([{"kinds":[9],"search":"rollback"}])");
    // bm25: the message that is all about "rollback" ranks first.
    QCOMPARE(idsOf(reply.json()), (std::vector<std::string> {rollback.id, plan.id}));
    // Prefix on the last word, and no FTS syntax from user text.
    QCOMPARE(idsOf(http.query(R"([{"kinds":[9],"search":"fri"}])").json()),
             std::vector<std::string> {plan.id});
    const std::string syntax = "[{\"kinds\":[9],\"search\":\"\\\"unbalanced OR NEAR( *\"}]";
    reply = http.query(syntax);
    QCOMPARE(reply.status, 200);
    QVERIFY(reply.json().empty());
}

void TestSearchE2e::httpSearchPageIsLimitOr100CappedAt500()
{
    for (int i = 0; i < 505; ++i)
        post(m_alice, m_open, "bulk message number " + std::to_string(i), i % 800);
    HttpTestClient http(*m_relay, &m_alice.key);
    QCOMPARE(http.query(R"([{"kinds":[9],"search":"bulk"}])").json().size(), std::size_t(100));
    QCOMPARE(http.query(R"([{"kinds":[9],"search":"bulk","limit":7}])").json().size(),
             std::size_t(7));
    QCOMPARE(http.query(R"([{"kinds":[9],"search":"bulk","limit":5000}])").json().size(),
             std::size_t(500));
    // WS search is not paged like HTTP: all 505 come back.
    QCOMPARE(search(m_alice, R"([{"kinds":[9],"search":"bulk"}])", ReadPath::ReqHistorical)
                 .events.size(),
             std::size_t(505));
}

void TestSearchE2e::searchIsScopedToReadableChannelsAndTheCommunity()
{
    const std::string secret = m_relay->createChannel(m_bob, "secret", "private");
    QVERIFY(!secret.empty());
    const auto hidden = post(m_bob, secret, "acquisition codename falcon");
    const auto visible = post(m_alice, m_open, "falcon sighting");
    // Another community never leaks into this one.
    auto foreign = m_alice.sign(9, m_relay->now(), {{"h", m_open}}, "falcon elsewhere");
    m_relay->engine().ingest(foreign, {"other", m_alice.pubkey(), Transport::Http});

    QCOMPARE(idsOf(search(m_alice, R"([{"kinds":[9],"search":"falcon"}])").events),
             std::vector<std::string> {visible.id});
    const auto bobs = idsOf(search(m_bob, R"([{"kinds":[9],"search":"falcon"}])").events);
    QCOMPARE(bobs.size(), std::size_t(2));
    QVERIFY(std::find(bobs.begin(), bobs.end(), hidden.id) != bobs.end());
    // A filter naming only inaccessible channels yields nothing (no error).
    const auto pinned =
        search(m_alice, R"([{"kinds":[9],"#h":[")" + secret + R"("],"search":"falcon"}])");
    QCOMPARE(int(pinned.status), int(QueryResult::Status::Ok));
    QVERIFY(pinned.events.empty());
    // #h narrows to that channel.
    QCOMPARE(idsOf(search(m_bob, R"([{"kinds":[9],"#h":[")" + secret + R"("],"search":"falcon"}])")
                       .events),
             std::vector<std::string> {hidden.id});
}

void TestSearchE2e::deletedMessagesVanishFromSearch()
{
    const auto message = post(m_alice, m_open, "typo in the announcement", 5);
    QCOMPARE(search(m_alice, R"([{"kinds":[9],"search":"announcement"}])").events.size(),
             std::size_t(1));
    const auto deletion = m_alice.sign(5, m_relay->now(), {{"e", message.id}, {"h", m_open}});
    QVERIFY(
        m_relay->engine()
            .ingest(deletion, {RelayServer::kDefaultCommunity, m_alice.pubkey(), Transport::Http})
            .accepted());
    QVERIFY(search(m_alice, R"([{"kinds":[9],"search":"announcement"}])").events.empty());
}

void TestSearchE2e::everyHitIsReMatchedAgainstItsFilter()
{
    const auto mine = post(m_alice, m_open, "quarterly numbers");
    post(m_bob, m_open, "quarterly numbers too");
    const auto result = search(
        m_bob, R"([{"kinds":[9],"authors":[")" + m_alice.pubkey() + R"("],"search":"quarterly"}])");
    QCOMPARE(idsOf(result.events), std::vector<std::string> {mine.id});
    QVERIFY(search(m_bob, R"([{"kinds":[40002],"search":"quarterly"}])").events.empty());
    QVERIFY(search(m_bob, R"([{"kinds":[9],"until":1,"search":"quarterly"}])").events.empty());
}

void TestSearchE2e::profileNameSearchFindsFlattenedNames()
{
    const auto profile = m_alice.sign(
        0, m_relay->now() - 60, {},
        R"({"display_name":"Alice Liddell","name":"alice","nip05":"alice@wonder.land"})");
    QVERIFY(
        m_relay->engine()
            .ingest(profile, {RelayServer::kDefaultCommunity, m_alice.pubkey(), Transport::Http})
            .accepted());
    HttpTestClient http(*m_relay, &m_bob.key);
    QCOMPARE(idsOf(http.query(R"([{"kinds":[0],"search":"ali","limit":50}])").json()),
             std::vector<std::string> {profile.id});
    QCOMPARE(idsOf(http.query(R"([{"kinds":[0],"search":"liddell"}])").json()),
             std::vector<std::string> {profile.id});
    QCOMPARE(idsOf(http.query(R"([{"kinds":[0],"search":"wonder"}])").json()),
             std::vector<std::string> {profile.id});
    // A newer profile replaces the old one: the superseded name no longer finds anything.
    const auto renamed = m_alice.sign(0, m_relay->now(), {}, R"({"name":"alicia"})");
    QVERIFY(
        m_relay->engine()
            .ingest(renamed, {RelayServer::kDefaultCommunity, m_alice.pubkey(), Transport::Http})
            .accepted());
    QVERIFY(idsOf(http.query(R"([{"kinds":[0],"search":"liddell"}])").json()).empty());
    QCOMPARE(idsOf(http.query(R"([{"kinds":[0],"search":"alicia"}])").json()),
             std::vector<std::string> {renamed.id});
}

void TestSearchE2e::httpSearchIgnoresNonSearchFiltersAndAppliesTheGates()
{
    const auto hit = post(m_alice, m_open, "needle in haystack", 3);
    post(m_alice, m_open, "just hay", 2);
    HttpTestClient http(*m_relay, &m_alice.key);
    auto reply = http.query(R"([{"kinds":[9],"limit":10},{"kinds":[9],"search":"needle"}])");
    QCOMPARE(reply.status, 200);
    QCOMPARE(idsOf(reply.json()), std::vector<std::string> {hit.id});
    reply = http.query(R"([{"kinds":[1059],"search":"needle"}])");
    QCOMPARE(reply.status, 403);
}

void TestSearchE2e::wsSearchIsOneShotResultsThenEose()
{
    const auto hit = post(m_alice, m_open, "release candidate ready", 4);
    WsTestClient ws(m_relay->wsUrl());
    QVERIFY(ws.connectAndAuthenticate(m_bob.key, m_relay->relayUrl(), m_relay->now()));
    ws.sendReq("s1", {R"({"kinds":[9],"search":"release candidate"})"});
    const auto events = ws.eventsUntilEose("s1");
    QVERIFY(events.has_value());
    QCOMPARE(events->size(), std::size_t(1));
    QCOMPARE((*events)[0].value("id", ""), hit.id);
    // Never live: a new matching event is not delivered to the finished search.
    post(m_alice, m_open, "release candidate two");
    QVERIFY(ws.receivesNothingWithin(300));
}

void TestSearchE2e::metricsCountSearches()
{
    post(m_alice, m_open, "metric words");
    HttpTestClient http(*m_relay, &m_alice.key);
    QCOMPARE(http.query(R"([{"kinds":[9],"search":"metric"}])").json().size(), std::size_t(1));
    const std::string metrics = m_relay->engine().metricsText();
    QVERIFY(metrics.find("buzz_search_requests_total 1") != std::string::npos);
    QVERIFY(metrics.find("buzz_search_results_total 1") != std::string::npos);
}

void TestSearchE2e::channelCreateReplayIsRecognisedByTheExactPair()
{
    const std::string uuid = newChannelId();
    const auto create = m_alice.sign(9007, m_relay->now(), {{"h", uuid}, {"name", "launch"}});
    HttpTestClient http(*m_relay, &m_alice.key);
    auto reply = http.postEvent(create);
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.json().value("accepted", false), true);
    QCOMPARE(reply.json().value("message", "?"), std::string());
    // A byte-identical replay (a retried, stalled-but-accepted create) is a success.
    reply = http.postEvent(create);
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.json().value("accepted", false), true);
    QCOMPARE(reply.json().value("message", "?"), std::string("duplicate:"));
    // A different event for the same UUID — same second, same author — is not.
    const auto other = m_alice.sign(9007, m_relay->now(), {{"h", uuid}, {"name", "launch2"}});
    reply = http.postEvent(other);
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.json().value("accepted", true), false);
    QCOMPARE(reply.json().value("message", ""), std::string("duplicate: channel already exists"));
    const auto later = m_bob.sign(9007, m_relay->now() + 1, {{"h", uuid}, {"name", "launch"}});
    HttpTestClient bobHttp(*m_relay, &m_bob.key);
    reply = bobHttp.postEvent(later);
    QCOMPARE(reply.json().value("accepted", true), false);
    QCOMPARE(reply.json().value("message", ""), std::string("duplicate: channel already exists"));
}

QTEST_GUILESS_MAIN(TestSearchE2e)
#include "test_search_e2e.moc"
