// The WebSocket side over real sockets (docs/buzz-protocol.md §WebSocket): limits, parse NOTICEs,
// REQ history → EOSE → live, the fan-out invariant, de-duplication, CLOSE, COUNT, EVENT refusals,
// unknown hosts.

#include "RawWsClient.h"
#include "RelayTestFixture.h"
#include "RelayTestFixtureHttpClient.h"
#include "RelayTestFixtureWsClient.h"

#include <QTcpSocket>
#include <QtTest>

using namespace buzz;
using namespace buzz::relay;
using namespace buzz::relay::test;

namespace {

std::string channelFilter(const std::string &channel, const std::string &kinds = "[9]")
{
    return R"({"kinds":)" + kinds + R"(,"#h":[")" + channel + R"("]})";
}

std::string notice(const std::string &detail)
{
    return "invalid message: Invalid message format: " + detail;
}

} // namespace

class TestServerWs : public QObject
{
    Q_OBJECT

private slots:
    void oversizedFrameClosesTheSocket();
    void elevenFiltersIsANotice();
    void emptySubscriptionIdIsANotice();
    void longSubscriptionIdIsANotice();
    void subscriptionIdOf256BytesIsAccepted();
    void subscriptionLimitIs1024();
    void malformedFramesAreNotices();
    void eventPubkeyMustMatchTheAuthenticatedOne();
    void authEventsCannotBeSubmittedViaEvent();
    void historyThenEoseThenLive();
    void liveOnlyForSingleChannelSubscriptions();
    void globalEventsReachGlobalSubscriptions();
    void duplicatesAcrossFiltersAreSentOnce();
    void closeAnswersClosedAndStopsLive();
    void sameIdReplacesTheSubscription();
    void countAnswersCount();
    void inaccessibleChannelIsClosed();
    void otherCommunitiesDoNotLeakLive();
    void unknownHostUpgradeIsRefused();
    void removedMemberSubscriptionIsClosed();
    void unmaskedFrameClosesWith1002_data();
    void unmaskedFrameClosesWith1002();
};

void TestServerWs::oversizedFrameClosesTheSocket()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    // 65 536 bytes is the limit: one byte more closes the connection, with no NOTICE.
    const std::string padding(65536, 'x');
    ws.send(R"(["NOTICE",")" + padding + R"("])");
    QVERIFY(ws.waitDisconnected());
    QCOMPARE(ws.closeCode(), QWebSocketProtocol::CloseCodeTooMuchData);
    QCOMPARE(ws.waitForType("NOTICE", 50), nlohmann::json());

    WsTestClient fits(relay.wsUrl());
    QVERIFY(fits.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    const std::string prefix = R"(["REQ","s",{"kinds":[1],"#t":[")";
    const std::string suffix = R"("]}])";
    fits.send(prefix + std::string(65536 - prefix.size() - suffix.size(), 'y') + suffix);
    QVERIFY(fits.eventsUntilEose("s").has_value());
    QVERIFY(fits.isConnected());
}

void TestServerWs::elevenFiltersIsANotice()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.sendReq("ten", std::vector<std::string>(10, R"({"kinds":[1]})"));
    QVERIFY(ws.eventsUntilEose("ten").has_value());
    ws.sendReq("eleven", std::vector<std::string>(11, R"({"kinds":[1]})"));
    QVERIFY(ws.waitForType("NOTICE")[1] == notice("REQ contains 11 filters, maximum is 10"));
    ws.send(R"(["COUNT","c",{},{},{},{},{},{},{},{},{},{},{}])");
    QVERIFY(ws.waitForType("NOTICE")[1] == notice("COUNT contains 11 filters, maximum is 10"));
}

void TestServerWs::emptySubscriptionIdIsANotice()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.sendReq("", {R"({"kinds":[1]})"});
    QVERIFY(ws.waitForType("NOTICE")[1] == notice("REQ sub_id must not be empty"));
}

void TestServerWs::longSubscriptionIdIsANotice()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.sendReq(std::string(257, 's'), {R"({"kinds":[1]})"});
    QVERIFY(ws.waitForType("NOTICE")[1]
            == notice("REQ sub_id exceeds maximum length of 256 bytes"));
}

void TestServerWs::subscriptionIdOf256BytesIsAccepted()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    const std::string id(256, 's');
    ws.sendReq(id, {R"({"kinds":[1]})"});
    QVERIFY(ws.eventsUntilEose(id).has_value());
}

void TestServerWs::subscriptionLimitIs1024()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    for (int i = 0; i < 1024; ++i)
        ws.sendReq("s" + std::to_string(i), {R"({"kinds":[1],"limit":1})"});
    for (int i = 0; i < 1024; ++i)
        QVERIFY2(ws.eventsUntilEose("s" + std::to_string(i), 20000).has_value(),
                 std::to_string(i).c_str());
    ws.sendReq("one-too-many", {R"({"kinds":[1]})"});
    QVERIFY(ws.waitForClosed("one-too-many")[2] == "error: too many subscriptions");
    // Replacing an existing id is not a new subscription.
    ws.sendReq("s7", {R"({"kinds":[1]})"});
    QVERIFY(ws.eventsUntilEose("s7").has_value());
    // Closing one frees a slot.
    ws.send(R"(["CLOSE","s0"])");
    QVERIFY(ws.waitForClosed("s0")[2] == "");
    ws.sendReq("one-more", {R"({"kinds":[1]})"});
    QVERIFY(ws.eventsUntilEose("one-more").has_value());
}

void TestServerWs::malformedFramesAreNotices()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.send(R"(["PING"])");
    QVERIFY(ws.waitForType("NOTICE")[1] == notice("unknown message type: PING"));
    ws.send("not json");
    const std::string invalidJson = ws.waitForType("NOTICE")[1];
    QVERIFY2(invalidJson.rfind(notice("invalid JSON: "), 0) == 0, invalidJson.c_str());
    ws.send(R"(["REQ","f",{"kinds":"one"}])");
    const std::string invalidFilter = ws.waitForType("NOTICE")[1];
    QVERIFY2(invalidFilter.rfind(notice("invalid filter: "), 0) == 0, invalidFilter.c_str());
    QVERIFY(ws.isConnected()); // parse errors never drop the connection
}

void TestServerWs::eventPubkeyMustMatchTheAuthenticatedOne()
{
    RelayTestFixture relay;
    TestIdentity alice;
    TestIdentity bob;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    const auto ok = ws.publish(bob.sign(1, relay.now(), {}, "bob's"));
    QVERIFY(ok[2] == false);
    QVERIFY(ok[3] == "invalid: event pubkey does not match authenticated identity");
    const auto own = ws.publish(alice.sign(1, relay.now(), {}, "alice's"));
    QVERIFY(own[2] == true);
}

void TestServerWs::authEventsCannotBeSubmittedViaEvent()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    const auto ok = ws.publish(alice.sign(22242, relay.now(), {{"relay", relay.relayUrl()}}));
    QVERIFY(ok[3] == "invalid: AUTH events cannot be submitted via EVENT");
}

void TestServerWs::historyThenEoseThenLive()
{
    RelayTestFixture relay;
    TestIdentity alice;
    const std::string channel = relay.createChannel(alice);
    HttpTestClient http(relay, &alice.key);
    const auto older = alice.sign(9, relay.now() - 10, {{"h", channel}}, "older");
    const auto newer = alice.sign(9, relay.now() - 5, {{"h", channel}}, "newer");
    QCOMPARE(http.postEvent(older).status, 200);
    QCOMPARE(http.postEvent(newer).status, 200);

    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.sendReq("ch", {channelFilter(channel)});
    const auto history = ws.eventsUntilEose("ch");
    QVERIFY(history.has_value());
    QCOMPARE(history->size(), std::size_t(2));
    QVERIFY((*history)[0]["id"] == newer.id); // newest first
    QVERIFY((*history)[1]["id"] == older.id);

    const auto live = alice.sign(9, relay.now(), {{"h", channel}}, "live");
    QCOMPARE(http.postEvent(live).status, 200);
    const auto frame =
        ws.waitFor([](const nlohmann::json &f) { return f[0] == "EVENT" && f[1] == "ch"; });
    QVERIFY(frame[2]["id"] == live.id);
    QVERIFY(frame[2] == nlohmann::json::parse(live.toJson()));
}

void TestServerWs::liveOnlyForSingleChannelSubscriptions()
{
    RelayTestFixture relay;
    TestIdentity alice;
    const std::string channel = relay.createChannel(alice);
    const std::string other = relay.createChannel(alice);
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.sendReq("scoped", {channelFilter(channel)});
    ws.sendReq("global", {R"({"kinds":[9]})"});
    ws.sendReq("two-channels", {channelFilter(channel), channelFilter(other)});
    ws.sendReq("mixed", {channelFilter(channel), R"({"kinds":[9]})"});
    for (const char *id : {"scoped", "global", "two-channels", "mixed"})
        QVERIFY(ws.eventsUntilEose(id).has_value());

    const auto message = ws.publish(alice.sign(9, relay.now(), {{"h", channel}}, "fan-out"));
    QVERIFY(message[2] == true);
    const auto delivered =
        ws.waitFor([](const nlohmann::json &f) { return f[0] == "EVENT" && f[1] == "scoped"; });
    QVERIFY(!delivered.is_null());
    // One live delivery pass covers every subscription of the connection, and frames are ordered:
    // after a CLOSE round trip nothing for the global-scoped subscriptions can still be pending.
    ws.send(R"(["CLOSE","scoped"])");
    QVERIFY(!ws.waitForClosed("scoped").is_null());
    QCOMPARE(ws.waitForType("EVENT", 0), nlohmann::json());
}

void TestServerWs::globalEventsReachGlobalSubscriptions()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.sendReq("notes", {R"({"kinds":[1]})"});
    QVERIFY(ws.eventsUntilEose("notes").has_value());
    HttpTestClient http(relay, &alice.key);
    const auto note = alice.sign(1, relay.now(), {}, "global note");
    QCOMPARE(http.postEvent(note).status, 200);
    const auto frame =
        ws.waitFor([](const nlohmann::json &f) { return f[0] == "EVENT" && f[1] == "notes"; });
    QVERIFY(frame[2]["id"] == note.id);
}

void TestServerWs::duplicatesAcrossFiltersAreSentOnce()
{
    RelayTestFixture relay;
    TestIdentity alice;
    const std::string channel = relay.createChannel(alice);
    HttpTestClient http(relay, &alice.key);
    const auto message = alice.sign(9, relay.now() - 1, {{"h", channel}}, "both filters match");
    QCOMPARE(http.postEvent(message).status, 200);
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    const std::string byAuthor =
        R"({"kinds":[9],"#h":[")" + channel + R"("],"authors":[")" + alice.pubkey() + R"("]})";
    ws.sendReq("dup", {channelFilter(channel), byAuthor});
    const auto history = ws.eventsUntilEose("dup");
    QVERIFY(history.has_value());
    QCOMPARE(history->size(), std::size_t(1));

    const auto live = alice.sign(9, relay.now(), {{"h", channel}}, "live, both match");
    QCOMPARE(http.postEvent(live).status, 200);
    QVERIFY(ws.waitFor(
                [](const nlohmann::json &f) { return f[0] == "EVENT" && f[1] == "dup"; })[2]["id"]
            == live.id);
    ws.send(R"(["CLOSE","dup"])");
    QVERIFY(!ws.waitForClosed("dup").is_null());
    QCOMPARE(ws.waitForType("EVENT", 0), nlohmann::json());
}

void TestServerWs::closeAnswersClosedAndStopsLive()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.sendReq("a", {R"({"kinds":[1]})"});
    ws.sendReq("b", {R"({"kinds":[1]})"});
    QVERIFY(ws.eventsUntilEose("a").has_value());
    QVERIFY(ws.eventsUntilEose("b").has_value());
    ws.send(R"(["CLOSE","a"])");
    QVERIFY(ws.waitForClosed("a") == nlohmann::json::parse(R"(["CLOSED","a",""])"));
    ws.send(R"(["CLOSE","never-opened"])");
    QVERIFY(ws.waitForClosed("never-opened")[2] == "");
    QVERIFY(ws.publish(alice.sign(1, relay.now(), {}, "after close"))[2] == true);
    QVERIFY(!ws.waitFor([](const nlohmann::json &f) {
                   return f[0] == "EVENT" && f[1] == "b";
               }).is_null());
    QCOMPARE(ws.waitFor([](const nlohmann::json &f) { return f[0] == "EVENT" && f[1] == "a"; }, 0),
             nlohmann::json());
}

void TestServerWs::sameIdReplacesTheSubscription()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.sendReq("s", {R"({"kinds":[1]})"});
    QVERIFY(ws.eventsUntilEose("s").has_value());
    ws.sendReq("s", {R"({"kinds":[7]})"});
    QVERIFY(ws.eventsUntilEose("s").has_value());
    QVERIFY(ws.publish(alice.sign(1, relay.now(), {}, "kind 1 no longer wanted"))[2] == true);
    const auto marker = alice.sign(1, relay.now(), {}, "marker");
    ws.sendReq("m", {R"({"kinds":[1]})"});
    QVERIFY(ws.eventsUntilEose("m").has_value());
    QVERIFY(ws.publish(marker)[2] == true);
    QVERIFY(!ws.waitFor([](const nlohmann::json &f) {
                   return f[0] == "EVENT" && f[1] == "m";
               }).is_null());
    QCOMPARE(ws.waitFor([](const nlohmann::json &f) { return f[0] == "EVENT" && f[1] == "s"; }, 0),
             nlohmann::json());
}

void TestServerWs::countAnswersCount()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    for (int i = 0; i < 2; ++i)
        QVERIFY(ws.publish(alice.sign(1, relay.now() - i, {}, "n" + std::to_string(i)))[2] == true);
    ws.send(R"(["COUNT","c",{"kinds":[1],"authors":[")" + alice.pubkey() + R"("]}])");
    QVERIFY(ws.waitForType("COUNT") == nlohmann::json::parse(R"(["COUNT","c",{"count":2}])"));
}

void TestServerWs::inaccessibleChannelIsClosed()
{
    RelayTestFixture relay;
    TestIdentity owner;
    TestIdentity outsider;
    const std::string secret = relay.createChannel(owner, "secret", "private");
    QVERIFY(!secret.empty());
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(outsider.key, relay.relayUrl(), relay.now()));
    ws.sendReq("peek", {channelFilter(secret)});
    QVERIFY(ws.waitForClosed("peek")[2] == "restricted: not a channel member");
}

void TestServerWs::otherCommunitiesDoNotLeakLive()
{
    RelayTestFixture::Options options;
    options.communities = {{"second.example", "second"}};
    RelayTestFixture relay(options);
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl()); // the default (loopback) community
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.sendReq("notes", {R"({"kinds":[1]})"});
    QVERIFY(ws.eventsUntilEose("notes").has_value());
    HttpTestClient second(relay, &alice.key);
    second.setHostHeader("second.example");
    QCOMPARE(second.postEvent(alice.sign(1, relay.now(), {}, "second community")).status, 200);
    const auto local = alice.sign(1, relay.now(), {}, "local community");
    QVERIFY(ws.publish(local)[2] == true);
    const auto frame = ws.waitFor([](const nlohmann::json &f) { return f[0] == "EVENT"; });
    QVERIFY(frame[2]["id"] == local.id); // the second community's note never arrived first
    QCOMPARE(ws.waitForType("EVENT", 0), nlohmann::json());
}

void TestServerWs::unknownHostUpgradeIsRefused()
{
    RelayTestFixture relay;
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, relay.port());
    QVERIFY(socket.waitForConnected(5000));
    socket.write(
        "GET / HTTP/1.1\r\nHost: unknown.example\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n");
    QByteArray received;
    QTRY_VERIFY_WITH_TIMEOUT(
        (received += socket.readAll(),
         socket.state() == QAbstractSocket::UnconnectedState || received.contains("no community")),
        5000);
    received += socket.readAll();
    // Never an AUTH challenge: the connection is refused with the community error.
    QVERIFY(!received.contains("AUTH"));
    QVERIFY2(received.contains("relay: no community is configured for this host"),
             received.constData());
}

void TestServerWs::removedMemberSubscriptionIsClosed()
{
    RelayTestFixture relay;
    TestIdentity owner, bob;
    const std::string channel = relay.createChannel(owner, "secret", "private");
    QVERIFY(!channel.empty());
    HttpTestClient http(relay, &owner.key);
    QCOMPARE(
        http.postEvent(owner.sign(9000, relay.now(), {{"h", channel}, {"p", bob.pubkey()}})).status,
        200);
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(bob.key, relay.relayUrl(), relay.now()));
    ws.sendReq("room", {"{\"kinds\":[9],\"#h\":[\"" + channel + "\"]}"});
    QVERIFY(ws.eventsUntilEose("room").has_value());
    ws.sendReq("global", {R"({"kinds":[1]})"});
    QVERIFY(ws.eventsUntilEose("global").has_value());

    QCOMPARE(
        http.postEvent(owner.sign(9001, relay.now() + 1, {{"h", channel}, {"p", bob.pubkey()}}))
            .status,
        200);
    const auto closed = ws.waitForClosed("room");
    QVERIFY2(closed.size() == 3 && closed[2] == "restricted: channel access revoked",
             closed.dump().c_str());
    // Nothing posted afterwards reaches him; his other subscription is untouched.
    QCOMPARE(http.postEvent(owner.sign(9, relay.now() + 2, {{"h", channel}}, "after")).status, 200);
    const auto note = owner.sign(1, relay.now() + 2, {}, "global note");
    QCOMPARE(http.postEvent(note).status, 200);
    const auto live = ws.waitFor([](const nlohmann::json &f) { return f[0] == "EVENT"; });
    QVERIFY2(live[1] == "global" && live[2]["id"] == note.id, live.dump().c_str());
}

// RFC 6455 §5.1: a server closes the connection with 1002 on an unmasked client frame, and does
// not act on it.
void TestServerWs::unmaskedFrameClosesWith1002_data()
{
    QTest::addColumn<int>("opcode");
    QTest::addColumn<QByteArray>("payload");
    QTest::newRow("text") << RawWsClient::kText << QByteArray(R"(["REQ","late",{}])");
    QTest::newRow("ping") << RawWsClient::kPing << QByteArray("are you there");
    QTest::newRow("long text") << RawWsClient::kText
                               << QByteArray(R"(["REQ","late",{"#t":[")") + QByteArray(300, 'x')
            + R"("]}])";
}

void TestServerWs::unmaskedFrameClosesWith1002()
{
    QFETCH(int, opcode);
    QFETCH(QByteArray, payload);
    RelayTestFixture relay;
    RawWsClient client;
    QVERIFY(client.open(relay.port()));
    QVERIFY(client.waitForFrame(RawWsClient::kText)); // AUTH
    // A masked frame is served (an unauthenticated REQ is refused with CLOSED).
    client.sendFrame(RawWsClient::kText, R"(["REQ","first",{}])");
    QTRY_VERIFY_WITH_TIMEOUT(client.frames().size() >= 3, 5000);
    QVERIFY(client.frames().back().payload.contains("auth-required"));
    const std::size_t before = client.frames().size();

    client.sendFrame(opcode, payload, false);
    QVERIFY(client.waitForFrame(RawWsClient::kClose));
    QVERIFY(client.waitClosed());
    const auto frames = client.frames();
    QCOMPARE(frames.size(), before + 1); // nothing but the close frame: the frame was not acted on
    QCOMPARE(frames.back().opcode, RawWsClient::kClose);
    QVERIFY2(frames.back().payload.startsWith(QByteArray("\x03\xea", 2)),
             frames.back().payload.toHex().constData());
    QCOMPARE(
        relay.server().metrics().counter("buzz_ws_disconnects_total{reason=\"protocol_error\"}"),
        std::uint64_t(1));
}

QTEST_GUILESS_MAIN(TestServerWs)
#include "test_server_ws.moc"
