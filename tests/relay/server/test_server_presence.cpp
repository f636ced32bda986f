// Presence (kind 20001) and typing (kind 20002) as docs/buzz-protocol.md §Presence and typing
// describes them: presence is kept per author for 90 s and read back as relay-signed 20001 events
// over HTTP /query and WS REQ; typing is scoped by `h`, member-checked, fanned out to the
// channel's subscribers and never stored.

#include "RelayTestFixture.h"
#include "RelayTestFixtureHttpClient.h"
#include "RelayTestFixtureWsClient.h"

#include <QtTest>

using namespace buzz;
using namespace buzz::relay;
using namespace buzz::relay::test;

namespace {

std::string presenceFilter(const std::vector<std::string> &authors)
{
    nlohmann::json filter = {{"kinds", {20001}}, {"authors", authors}};
    return filter.dump();
}

// The subjects and statuses of relay-signed presence events, each checked: kind 20001, signed by
// the relay, a valid id and signature, one `p` naming the subject.
std::map<std::string, std::string> statuses(const RelayTestFixture &relay,
                                            const nlohmann::json &events)
{
    std::map<std::string, std::string> found;
    for (const auto &json : events) {
        const auto event = nostr::Event::fromJson(json);
        if (!event.hasValue()) {
            qWarning("not an event: %s", json.dump().c_str());
            return {};
        }
        if (event->kind != 20001 || event->pubkey != relay.relayPublicKey() || !event->verify()
            || event->tagCount("p") != 1) {
            qWarning("not a relay-signed presence event: %s", json.dump().c_str());
            return {};
        }
        found[*event->tagValue("p")] = event->content;
    }
    return found;
}

std::map<std::string, std::string> httpStatuses(RelayTestFixture &relay, HttpTestClient &http,
                                                const std::vector<std::string> &authors)
{
    const auto reply = http.query("[" + presenceFilter(authors) + "]");
    if (reply.status != 200) {
        qWarning("query answered %d: %s", reply.status, reply.error().c_str());
        return {{"error", std::to_string(reply.status)}};
    }
    return statuses(relay, reply.json());
}

} // namespace

class TestServerPresence : public QObject
{
    Q_OBJECT

private slots:
    void presenceQueryIsAnsweredFromTheTable();
    void offlineClearsAndStatusesExpireAfter90Seconds();
    void onlyAllPresenceFiltersWithAuthorsAreAnsweredFromTheTable();
    void presenceIsWebSocketOnly();
    void typingReachesTheChannelAndIsNeverStored();
    void typingIsMemberCheckedAndScopedByH();
};

// Alice says she is here over WebSocket; Bob reads it over HTTP and over WebSocket as a
// relay-signed 20001 naming her; the latest status wins.
void TestServerPresence::presenceQueryIsAnsweredFromTheTable()
{
    RelayTestFixture relay;
    TestIdentity alice, bob, carol;
    WsTestClient aliceWs(relay.wsUrl());
    QVERIFY(aliceWs.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    QCOMPARE(aliceWs.publish(alice.sign(20001, relay.now(), {}, "online"))[2], true);

    HttpTestClient http(relay, &bob.key);
    using Statuses = std::map<std::string, std::string>;
    QCOMPARE(httpStatuses(relay, http, {alice.pubkey(), carol.pubkey()}),
             (Statuses {{alice.pubkey(), "online"}}));

    QCOMPARE(aliceWs.publish(alice.sign(20001, relay.now() + 1, {}, "editing"))[2], true);
    QCOMPARE(httpStatuses(relay, http, {alice.pubkey()}), (Statuses {{alice.pubkey(), "editing"}}));

    WsTestClient bobWs(relay.wsUrl());
    QVERIFY(bobWs.connectAndAuthenticate(bob.key, relay.relayUrl(), relay.now()));
    bobWs.sendReq("here", {presenceFilter({alice.pubkey(), carol.pubkey()})});
    const auto history = bobWs.eventsUntilEose("here");
    QVERIFY(history.has_value());
    QCOMPARE(statuses(relay, nlohmann::json(*history)), (Statuses {{alice.pubkey(), "editing"}}));
}

// "offline" clears a status at once; one never renewed is gone 90 s after it was set.
void TestServerPresence::offlineClearsAndStatusesExpireAfter90Seconds()
{
    RelayTestFixture relay;
    TestIdentity alice, bob;
    WsTestClient aliceWs(relay.wsUrl());
    QVERIFY(aliceWs.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    HttpTestClient http(relay, &bob.key);
    using Statuses = std::map<std::string, std::string>;

    QCOMPARE(aliceWs.publish(alice.sign(20001, relay.now(), {}, "online"))[2], true);
    QCOMPARE(aliceWs.publish(alice.sign(20001, relay.now() + 1, {}, "offline"))[2], true);
    QCOMPARE(httpStatuses(relay, http, {alice.pubkey()}), Statuses {});

    QCOMPARE(aliceWs.publish(alice.sign(20001, relay.now() + 2, {}, "online"))[2], true);
    relay.advance(89);
    QCOMPARE(httpStatuses(relay, http, {alice.pubkey()}), (Statuses {{alice.pubkey(), "online"}}));
    relay.advance(1);
    QCOMPARE(httpStatuses(relay, http, {alice.pubkey()}), Statuses {});
}

// Only a request whose every filter is kinds:[20001] with authors is a presence query; anything
// else is read from the store, where presence never is.
void TestServerPresence::onlyAllPresenceFiltersWithAuthorsAreAnsweredFromTheTable()
{
    RelayTestFixture relay;
    TestIdentity alice, bob;
    WsTestClient aliceWs(relay.wsUrl());
    QVERIFY(aliceWs.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    QCOMPARE(aliceWs.publish(alice.sign(20001, relay.now(), {}, "online"))[2], true);
    HttpTestClient http(relay, &bob.key);
    for (const std::string &filters :
         {std::string(R"([{"kinds":[20001]}])"),
          "[" + presenceFilter({alice.pubkey()}) + R"(,{"kinds":[1]}])",
          R"([{"kinds":[20001,1],"authors":[")" + alice.pubkey() + R"("]}])"}) {
        const auto reply = http.query(filters);
        QCOMPARE(reply.status, 200);
        QVERIFY2(reply.json().empty(), filters.c_str());
    }
}

// Over HTTP, presence is refused with the real relay's words; the status is not taken.
void TestServerPresence::presenceIsWebSocketOnly()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto refused = http.postEvent(alice.sign(20001, relay.now(), {}, "online"));
    QCOMPARE(refused.status, 400);
    QCOMPARE(refused.error(), std::string("invalid: kind 20001 is only accepted via WebSocket"));
    QVERIFY(httpStatuses(relay, http, {alice.pubkey()}).empty());
}

// Typing in a channel reaches that channel's subscribers, not global ones, and is never stored.
void TestServerPresence::typingReachesTheChannelAndIsNeverStored()
{
    RelayTestFixture relay;
    TestIdentity alice, bob;
    const std::string channel = relay.createChannel(alice);
    WsTestClient bobWs(relay.wsUrl());
    QVERIFY(bobWs.connectAndAuthenticate(bob.key, relay.relayUrl(), relay.now()));
    bobWs.sendReq("typing", {R"({"kinds":[20002],"#h":[")" + channel + R"("]})"});
    QVERIFY(bobWs.eventsUntilEose("typing").has_value());
    bobWs.sendReq("global", {R"({"kinds":[20002]})"});
    QVERIFY(bobWs.eventsUntilEose("global").has_value());

    WsTestClient aliceWs(relay.wsUrl());
    QVERIFY(aliceWs.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    const auto typing = alice.sign(20002, relay.now(), {{"h", channel}});
    const auto ok = aliceWs.publish(typing);
    QVERIFY2(ok[2] == true && ok[3] == "", ok.dump().c_str());
    const auto frame = bobWs.waitFor([](const nlohmann::json &f) { return f[0] == "EVENT"; });
    QCOMPARE(frame[1], "typing");
    QVERIFY(frame[2]["id"] == typing.id);
    QVERIFY(bobWs.receivesNothingWithin(300)); // the global subscription gets nothing

    HttpTestClient http(relay, &alice.key);
    const auto stored = http.query(R"([{"kinds":[20002],"#h":[")" + channel + R"("]}])");
    QCOMPARE(stored.status, 200);
    QVERIFY(stored.json().empty());
}

// Typing needs an `h`, membership of a private channel, and a WebSocket; over HTTP an ephemeral
// kind is unknown to the relay, as upstream.
void TestServerPresence::typingIsMemberCheckedAndScopedByH()
{
    RelayTestFixture relay;
    TestIdentity owner, mallory;
    const std::string secret = relay.createChannel(owner, "secret", "private");
    WsTestClient malloryWs(relay.wsUrl());
    QVERIFY(malloryWs.connectAndAuthenticate(mallory.key, relay.relayUrl(), relay.now()));
    auto answer = malloryWs.publish(mallory.sign(20002, relay.now(), {{"h", secret}}));
    QCOMPARE(answer[2], false);
    QCOMPARE(answer[3], "restricted: not a channel member");
    answer = malloryWs.publish(mallory.sign(20002, relay.now(), {}));
    QCOMPARE(answer[2], false);
    QCOMPARE(answer[3], "invalid: channel-scoped events must include an h tag");

    WsTestClient ownerWs(relay.wsUrl());
    QVERIFY(ownerWs.connectAndAuthenticate(owner.key, relay.relayUrl(), relay.now()));
    QCOMPARE(ownerWs.publish(owner.sign(20002, relay.now(), {{"h", secret}}))[2], true);

    HttpTestClient http(relay, &owner.key);
    const auto refused = http.postEvent(owner.sign(20002, relay.now(), {{"h", secret}}));
    QCOMPARE(refused.status, 400);
    QCOMPARE(refused.error(), std::string("restricted: unknown event kind"));
}

QTEST_GUILESS_MAIN(TestServerPresence)
#include "test_server_presence.moc"
