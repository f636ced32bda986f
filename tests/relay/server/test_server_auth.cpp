// Authentication failures over real sockets with the real relay's exact answers:
// NIP-98 on the HTTP bridge (docs/buzz-protocol.md §NIP-98, §Bridge errors) and NIP-42 on WebSocket
// (§NIP-42).

#include "RelayTestFixture.h"
#include "RelayTestFixtureHttpClient.h"
#include "RelayTestFixtureWsClient.h"

#include "net/nostr/Nip42.h"
#include "net/nostr/Nip98.h"
#include "net/nostr/RelayUrl.h"
#include "net/nostr/Sha256.h"

#include <QtTest>

using namespace buzz;
using namespace buzz::relay;
using namespace buzz::relay::test;

namespace {

const QByteArray kQueryBody = R"([{"kinds":[1]}])";

QByteArray nostrHeader(const std::string &json)
{
    return "Nostr " + QByteArray::fromStdString(json).toBase64();
}

// A kind-27235 event for POST <relay>/query over kQueryBody, then `tamper` applied, then signed.
QByteArray tamperedHeader(RelayTestFixture &relay, const TestIdentity &who,
                          const std::function<void(nostr::Event &)> &tamper)
{
    const std::string url = nostr::httpBaseFromRelayUrl(relay.relayUrl()) + "/query";
    nostr::Event event = nostr::nip98::buildHttpAuthEvent(
        who.key, url, "POST", std::string_view(kQueryBody.constData()), relay.now());
    tamper(event);
    who.key.signEvent(event);
    return nostrHeader(event.toJson());
}

void setTag(nostr::Event &event, const std::string &name, std::optional<std::string> value)
{
    auto &tags = event.tags;
    tags.erase(std::remove_if(tags.begin(), tags.end(),
                              [&](const auto &t) { return !t.empty() && t[0] == name; }),
               tags.end());
    if (value)
        tags.push_back({name, *value});
}

const std::string kFailed = "NIP-98: NIP-98 HTTP Auth verification failed: ";

} // namespace

class TestServerAuth : public QObject
{
    Q_OBJECT

private slots:
    // NIP-98 (HTTP)
    void signedRequestIsAccepted();
    void missingAuthorization();
    void invalidBase64();
    void invalidUtf8();
    void invalidEventJson();
    void wrongKind();
    void badSignature();
    void timestampOutsideWindow();
    void missingUrlTag();
    void urlMismatch();
    void urlComparedAfterLoopbackNormalisation();
    void missingMethodTag();
    void methodMismatch();
    void payloadMismatch();
    void replayIsDetected();
    void devHeaderOffByDefault();
    void devHeaderAcceptedWhenEnabled();
    void devHeaderMalformed();
    // NIP-42 (WebSocket)
    void challengeComesFirst();
    void authSuccess();
    void secondAuthAfterSuccess();
    void badAuthFailsTheConnection_data();
    void badAuthFailsTheConnection();
    void unauthenticatedReqIsRefused();
    void unauthenticatedEventIsRefused();
    void unauthenticatedCountIsRefused();
    void failedConnectionStaysUnauthenticated();
};

void TestServerAuth::signedRequestIsAccepted()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    QCOMPARE(http.query(kQueryBody.toStdString()).status, 200);
}

void TestServerAuth::missingAuthorization()
{
    RelayTestFixture relay;
    HttpTestClient http(relay);
    const auto reply = http.query(kQueryBody.toStdString());
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.body, QByteArray(R"({"error":"missing Nostr auth"})"));
    // A non-Nostr scheme is the same as none.
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {}, "Bearer abc").error(),
             "missing Nostr auth");
}

void TestServerAuth::invalidBase64()
{
    RelayTestFixture relay;
    HttpTestClient http(relay);
    const auto reply =
        http.post(QStringLiteral("/query"), kQueryBody, {}, "Nostr !!!not-base64!!!");
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.error(), "invalid base64 in Nostr auth");
}

void TestServerAuth::invalidUtf8()
{
    RelayTestFixture relay;
    HttpTestClient http(relay);
    const auto reply = http.post(QStringLiteral("/query"), kQueryBody, {},
                                 "Nostr " + QByteArray("\xff\xfe{").toBase64());
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.error(), "invalid UTF-8 in Nostr auth");
}

void TestServerAuth::invalidEventJson()
{
    RelayTestFixture relay;
    HttpTestClient http(relay);
    const auto reply =
        http.post(QStringLiteral("/query"), kQueryBody, {}, nostrHeader(R"({"kind":27235})"));
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.error(), "invalid NIP-98 event JSON");
}

void TestServerAuth::wrongKind()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay);
    const auto header = tamperedHeader(relay, alice, [](nostr::Event &e) { e.kind = 1; });
    const auto reply = http.post(QStringLiteral("/query"), kQueryBody, {}, header);
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.error(), kFailed + "expected kind 27235, got 1");
}

void TestServerAuth::badSignature()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay);
    const std::string url = nostr::httpBaseFromRelayUrl(relay.relayUrl()) + "/query";
    auto event = nostr::nip98::buildHttpAuthEvent(
        alice.key, url, "POST", std::string_view(kQueryBody.constData()), relay.now());
    event.sig[0] = event.sig[0] == 'a' ? 'b' : 'a';
    const auto reply =
        http.post(QStringLiteral("/query"), kQueryBody, {}, nostrHeader(event.toJson()));
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.error(), kFailed + "invalid Schnorr signature");
}

void TestServerAuth::timestampOutsideWindow()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto header =
        http.authorizationFor(QStringLiteral("/query"), kQueryBody, relay.now() - 61);
    const auto reply = http.post(QStringLiteral("/query"), kQueryBody, {}, header);
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.error(), kFailed + "event timestamp outside ±60s window (delta: 61s)");
    const auto edge = http.authorizationFor(QStringLiteral("/query"), kQueryBody, relay.now() - 60);
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {}, edge).status, 200);
}

void TestServerAuth::missingUrlTag()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay);
    const auto header =
        tamperedHeader(relay, alice, [](nostr::Event &e) { setTag(e, "u", std::nullopt); });
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {}, header).error(),
             kFailed + "missing `u` tag");
}

void TestServerAuth::urlMismatch()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay);
    const std::string expected = nostr::httpBaseFromRelayUrl(relay.relayUrl()) + "/query";
    const std::string signedFor = nostr::httpBaseFromRelayUrl(relay.relayUrl()) + "/count";
    const auto header =
        tamperedHeader(relay, alice, [&](nostr::Event &e) { setTag(e, "u", signedFor); });
    const auto reply = http.post(QStringLiteral("/query"), kQueryBody, {}, header);
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.error(),
             kFailed + "URL mismatch: event has `" + signedFor + "`, expected `" + expected + "`");
}

void TestServerAuth::urlComparedAfterLoopbackNormalisation()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay);
    const std::string viaLocalhost = "http://localhost:" + std::to_string(relay.port()) + "/query/";
    const auto header =
        tamperedHeader(relay, alice, [&](nostr::Event &e) { setTag(e, "u", viaLocalhost); });
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {}, header).status, 200);
}

void TestServerAuth::missingMethodTag()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay);
    const auto header =
        tamperedHeader(relay, alice, [](nostr::Event &e) { setTag(e, "method", std::nullopt); });
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {}, header).error(),
             kFailed + "missing `method` tag");
}

void TestServerAuth::methodMismatch()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay);
    const auto header =
        tamperedHeader(relay, alice, [](nostr::Event &e) { setTag(e, "method", "GET"); });
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {}, header).error(),
             kFailed + "method mismatch: event has `GET`, expected `POST`");
    const auto lower =
        tamperedHeader(relay, alice, [](nostr::Event &e) { setTag(e, "method", "post"); });
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {}, lower).status, 200);
}

void TestServerAuth::payloadMismatch()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto header = http.authorizationFor(QStringLiteral("/query"), kQueryBody);
    const auto reply = http.post(QStringLiteral("/query"), R"([{"kinds":[2]}])", {}, header);
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.error(),
             kFailed + "payload tag SHA-256 mismatch: request body does not match signed hash");
    // The payload tag is optional.
    const auto noPayload =
        tamperedHeader(relay, alice, [](nostr::Event &e) { setTag(e, "payload", std::nullopt); });
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {}, noPayload).status, 200);
}

void TestServerAuth::replayIsDetected()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto header = http.authorizationFor(QStringLiteral("/query"), kQueryBody);
    QCOMPARE(http.post(QStringLiteral("/query"), kQueryBody, {}, header).status, 200);
    const auto replay = http.post(QStringLiteral("/query"), kQueryBody, {}, header);
    QCOMPARE(replay.status, 401);
    QCOMPARE(replay.body, QByteArray(R"({"error":"NIP-98: replay detected"})"));
}

void TestServerAuth::devHeaderOffByDefault()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay);
    const auto reply = http.post(QStringLiteral("/query"), kQueryBody,
                                 {{"X-Pubkey", QByteArray::fromStdString(alice.pubkey())}});
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.error(), "missing Nostr auth");
}

void TestServerAuth::devHeaderAcceptedWhenEnabled()
{
    RelayTestFixture::Options options;
    options.devPubkeyHeader = true;
    RelayTestFixture relay(options);
    TestIdentity alice;
    HttpTestClient http(relay);
    const auto note = alice.sign(1, relay.now(), {}, "dev");
    const auto reply =
        http.post(QStringLiteral("/events"), QByteArray::fromStdString(note.toJson()),
                  {{"X-Pubkey", QByteArray::fromStdString(alice.pubkey())}});
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.json()["accepted"], true);
    // The dev identity is the authenticated one: someone else's event is refused.
    TestIdentity bob;
    const auto forged = http.post(QStringLiteral("/events"),
                                  QByteArray::fromStdString(bob.sign(1, relay.now()).toJson()),
                                  {{"X-Pubkey", QByteArray::fromStdString(alice.pubkey())}});
    QCOMPARE(forged.status, 403);
}

void TestServerAuth::devHeaderMalformed()
{
    RelayTestFixture::Options options;
    options.devPubkeyHeader = true;
    RelayTestFixture relay(options);
    HttpTestClient http(relay);
    const auto reply = http.post(QStringLiteral("/query"), kQueryBody, {{"X-Pubkey", "not-hex"}});
    QCOMPARE(reply.status, 401);
    QCOMPARE(reply.body, QByteArray(R"({"error":"invalid X-Pubkey hex"})"));
}

void TestServerAuth::challengeComesFirst()
{
    RelayTestFixture relay;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndWaitChallenge());
    QCOMPARE(ws.challenge().size(), std::size_t(64));
    QVERIFY(std::all_of(ws.challenge().begin(), ws.challenge().end(),
                        [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }));
    WsTestClient other(relay.wsUrl());
    QVERIFY(other.connectAndWaitChallenge());
    QVERIFY(other.challenge() != ws.challenge());
}

void TestServerAuth::authSuccess()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndWaitChallenge());
    const auto ok = ws.authenticate(alice.key, relay.relayUrl(), relay.now());
    QCOMPARE(ok.size(), std::size_t(4));
    QVERIFY(ok[2] == true);
    QVERIFY(ok[3] == "");
}

void TestServerAuth::secondAuthAfterSuccess()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    const auto again = ws.authenticate(alice.key, relay.relayUrl(), relay.now());
    QVERIFY(again[2] == false);
    QVERIFY(again[3] == "auth-required: already authenticated");
    // Still authenticated: REQ works.
    ws.sendReq("s", {R"({"kinds":[1]})"});
    QVERIFY(ws.eventsUntilEose("s").has_value());
}

void TestServerAuth::badAuthFailsTheConnection_data()
{
    QTest::addColumn<QString>("what");
    QTest::newRow("bad signature") << "sig";
    QTest::newRow("wrong challenge") << "challenge";
    QTest::newRow("wrong relay url") << "relay";
    QTest::newRow("stale timestamp") << "time";
    QTest::newRow("wrong kind") << "kind";
}

void TestServerAuth::badAuthFailsTheConnection()
{
    QFETCH(QString, what);
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndWaitChallenge());
    std::string relayUrl = relay.relayUrl();
    std::string challenge = ws.challenge();
    std::int64_t at = relay.now();
    if (what == "challenge")
        challenge = std::string(64, '0');
    if (what == "relay")
        relayUrl = "ws://relay.example.com";
    if (what == "time")
        at -= 61;
    auto auth = nostr::nip42::buildAuthEvent(alice.key, relayUrl, challenge, at);
    if (what == "kind") {
        auth.kind = 22243;
        alice.key.signEvent(auth);
    }
    if (what == "sig")
        auth.sig[5] = auth.sig[5] == '0' ? '1' : '0';
    ws.send("[\"AUTH\"," + auth.toJson() + "]");
    const auto ok = ws.waitForOk(auth.id);
    QVERIFY(ok[2] == false);
    QVERIFY(ok[3] == "auth-required: verification failed");
}

void TestServerAuth::unauthenticatedReqIsRefused()
{
    RelayTestFixture relay;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndWaitChallenge());
    ws.sendReq("sub", {R"({"kinds":[1]})"});
    const auto notice = ws.waitForType("NOTICE");
    QVERIFY(notice[1] == "auth-required: authenticate before subscribing");
    const auto closed = ws.waitForClosed("sub");
    QVERIFY(closed[2] == "auth-required: not authenticated");
}

void TestServerAuth::unauthenticatedEventIsRefused()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndWaitChallenge());
    const auto ok = ws.publish(alice.sign(1, relay.now(), {}, "hi"));
    QVERIFY(ok[2] == false);
    QVERIFY(ok[3] == "auth-required: not authenticated");
}

void TestServerAuth::unauthenticatedCountIsRefused()
{
    RelayTestFixture relay;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndWaitChallenge());
    ws.send(R"(["COUNT","c",{"kinds":[1]}])");
    QVERIFY(ws.waitForClosed("c")[2] == "auth-required: not authenticated");
}

void TestServerAuth::failedConnectionStaysUnauthenticated()
{
    RelayTestFixture relay;
    TestIdentity alice;
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndWaitChallenge());
    const auto bad = nostr::nip42::buildAuthEvent(alice.key, relay.relayUrl(), std::string(64, 'f'),
                                                  relay.now());
    ws.send("[\"AUTH\"," + bad.toJson() + "]");
    QVERIFY(ws.waitForOk(bad.id)[3] == "auth-required: verification failed");
    // A correct AUTH afterwards does not rescue the connection.
    const auto good = ws.authenticate(alice.key, relay.relayUrl(), relay.now());
    QVERIFY(good[2] == false);
    QVERIFY(good[3] == "auth-required: authentication already failed");
    const auto ok = ws.publish(alice.sign(1, relay.now(), {}, "still refused"));
    QVERIFY(ok[3] == "auth-required: not authenticated");
    // Reconnecting is the way to retry.
    WsTestClient retry(relay.wsUrl());
    QVERIFY(retry.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
}

QTEST_GUILESS_MAIN(TestServerAuth)
#include "test_server_auth.moc"
