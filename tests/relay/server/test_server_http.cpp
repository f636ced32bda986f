// The HTTP side of the relay over real sockets: NIP-11, /health, /metrics, the bridge's answers
// (docs/buzz-protocol.md §HTTP bridge), body limits, Host → community resolution and community
// isolation.

#include "RelayTestFixture.h"
#include "RelayTestFixtureHttpClient.h"
#include "RelayTestFixtureWsClient.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QtTest>

#include <vector>

using namespace buzz;
using namespace buzz::relay;
using namespace buzz::relay::test;

namespace {

struct RawAnswer
{
    int status = 0;
    QByteArray body;
};

// Splits what arrived on a keep-alive connection into its answers (every relay answer has a
// Content-Length). Stops at an incomplete answer.
std::vector<RawAnswer> splitAnswers(const QByteArray &stream)
{
    std::vector<RawAnswer> answers;
    qsizetype at = 0;
    while (true) {
        const qsizetype headEnd = stream.indexOf("\r\n\r\n", at);
        if (headEnd < 0)
            break;
        const QByteArray head = stream.mid(at, headEnd - at).toLower();
        const qsizetype lengthAt = head.indexOf("content-length:");
        if (lengthAt < 0)
            break;
        const qsizetype lineEnd = head.indexOf("\r\n", lengthAt);
        const qsizetype length = head.mid(lengthAt + 15, lineEnd < 0 ? -1 : lineEnd - lengthAt - 15)
                                     .trimmed()
                                     .toLongLong();
        if (stream.size() < headEnd + 4 + length)
            break;
        answers.push_back({head.mid(9, 3).toInt(), stream.mid(headEnd + 4, length)});
        at = headEnd + 4 + length;
    }
    return answers;
}

// Sends `requests` in one write on one connection and returns the answers once `count` arrived
// (or the relay closed, or 20 s passed). The relay runs on this thread: waits spin its event loop.
std::vector<RawAnswer> pipeline(quint16 port, const QByteArray &requests, std::size_t count)
{
    QTcpSocket socket;
    QSignalSpy connected(&socket, &QTcpSocket::connected);
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!connected.wait(5000))
        return {};
    QByteArray received;
    QObject::connect(&socket, &QTcpSocket::readyRead, [&] { received += socket.readAll(); });
    socket.write(requests);
    QElapsedTimer timer;
    timer.start();
    while (splitAnswers(received).size() < count && timer.elapsed() < 20000
           && socket.state() == QAbstractSocket::ConnectedState) {
        QSignalSpy ready(&socket, &QTcpSocket::readyRead);
        ready.wait(50);
    }
    return splitAnswers(received);
}

QByteArray post(quint16 port, const QByteArray &path, const std::string &pubkey,
                const QByteArray &body)
{
    return "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port)
        + "\r\nX-Pubkey: " + QByteArray::fromStdString(pubkey)
        + "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
        + "\r\n\r\n" + body;
}

char kindOf(const RawAnswer &answer)
{
    if (answer.status == 200 && answer.body.startsWith('['))
        return 'Q';
    if (answer.status == 200 && answer.body.startsWith("{\"count\":"))
        return 'C';
    if (answer.status == 200 && answer.body == "ok")
        return 'H';
    if (answer.status == 404)
        return 'N';
    return '?';
}

} // namespace

class TestServerHttp : public QObject
{
    Q_OBJECT

private slots:
    void nip11WithNostrAccept();
    void nip11IsTheFallbackAndOnInfo();
    void healthAnswersOk();
    void unknownHostIs404();
    void unknownHostIs404OnTheBridgeBeforeAuth();
    void loopbackAliasesReachTheDefaultCommunity();
    void storedEventIsAcknowledgedAndQueryable();
    void duplicateEventIsAcceptedWithDuplicateMessage();
    void invalidEventJsonIs400();
    void ingestRejectionUsesTheIngestStatus();
    void invalidFiltersIs400();
    void beforeIdWithoutUntilIs400Verbatim();
    void invalidConsistencyIs400();
    void pGatedQueryIs403();
    void engramQueryIs403();
    void countAnswersCountObject();
    void readRouteHeaderOnQueryAndCount();
    void bodyOverOneMebibyteIs413();
    void communitiesAreIsolated();
    void metricsExposeServerAndEngineCounters();
    void pipelinedAnswersKeepRequestOrder();
    void refusalWaitsForEarlierAnswers();
    void relayWideBoundRefusesLargeAnswers();
};

void TestServerHttp::nip11WithNostrAccept()
{
    RelayTestFixture relay;
    QVERIFY(relay.isListening());
    HttpTestClient http(relay);
    const auto reply = http.get(QStringLiteral("/"), {{"Accept", "application/nostr+json"}});
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.header("Content-Type"), QByteArray("application/nostr+json"));
    QCOMPARE(reply.header("Access-Control-Allow-Origin"), QByteArray("*"));
    const auto doc = reply.json();
    QCOMPARE(doc["name"], "Buzz Relay");
    QCOMPARE(doc["self"], relay.relayPublicKey());
    QCOMPARE(doc["limitation"]["max_message_length"], 65536);
    QCOMPARE(doc["limitation"]["max_subscriptions"], 1024);
    QCOMPARE(doc["limitation"]["max_filters"], 10);
    QCOMPARE(doc["limitation"]["max_subid_length"], 256);
    QCOMPARE(doc["limitation"]["auth_required"], true);
    // The real relay's list plus what this relay implements and upstream leaves unadvertised:
    // 9 (deletion), 45 (COUNT), 98 (the bridge's HTTP auth).
    QCOMPARE(doc["supported_nips"],
             nlohmann::json({1, 2, 9, 10, 11, 16, 17, 23, 25, 29, 33, 38, 42, 45, 50, 98}));
    // Field order is upstream's, so clients comparing bytes see the same document.
    QVERIFY(reply.body.startsWith("{\"name\":\"Buzz Relay\",\"description\":"));
}

void TestServerHttp::nip11IsTheFallbackAndOnInfo()
{
    RelayTestFixture relay;
    HttpTestClient http(relay);
    const auto root = http.get(QStringLiteral("/"));
    const auto info = http.get(QStringLiteral("/info"));
    QCOMPARE(root.status, 200);
    QCOMPARE(info.status, 200);
    QCOMPARE(root.body, info.body);
    QCOMPARE(root.json()["self"], relay.relayPublicKey());
}

void TestServerHttp::healthAnswersOk()
{
    RelayTestFixture relay;
    HttpTestClient http(relay);
    const auto reply = http.get(QStringLiteral("/health"));
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.body, QByteArray("ok"));
}

void TestServerHttp::unknownHostIs404()
{
    RelayTestFixture relay;
    HttpTestClient http(relay);
    http.setHostHeader("unknown.example:1234");
    const auto reply = http.get(QStringLiteral("/info"));
    QCOMPARE(reply.status, 404);
    QCOMPARE(reply.body,
             QByteArray(R"({"error":"relay: no community is configured for this host"})"));
}

void TestServerHttp::unknownHostIs404OnTheBridgeBeforeAuth()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    http.setHostHeader("unknown.example");
    QCOMPARE(http.query(R"([{"kinds":[1]}])").error(),
             "relay: no community is configured for this host");
    http.setKey(nullptr); // unsigned: still the host answer, never "missing Nostr auth"
    const auto reply = http.query(R"([{"kinds":[1]}])");
    QCOMPARE(reply.status, 404);
    QCOMPARE(reply.error(), "relay: no community is configured for this host");
}

void TestServerHttp::loopbackAliasesReachTheDefaultCommunity()
{
    RelayTestFixture relay;
    HttpTestClient http(relay);
    for (const QByteArray &host :
         {QByteArray("localhost:"), QByteArray("LOCALHOST:"), QByteArray("127.0.0.1:")}) {
        http.setHostHeader(host + QByteArray::number(relay.port()));
        QCOMPARE(http.get(QStringLiteral("/info")).status, 200);
    }
}

void TestServerHttp::storedEventIsAcknowledgedAndQueryable()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const std::string channel = relay.createChannel(alice);
    QVERIFY(!channel.empty());
    const auto message = alice.sign(9, relay.now(), {{"h", channel}}, "hello");
    const auto reply = http.postEvent(message);
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.body,
             QByteArray::fromStdString(R"({"event_id":")" + message.id
                                       + R"(","accepted":true,"message":""})"));

    const auto rows = http.query(R"([{"kinds":[9],"#h":[")" + channel + R"("]}])");
    QCOMPARE(rows.status, 200);
    // Served verbatim: the exact bytes the client signed and sent.
    QCOMPARE(rows.body, QByteArray::fromStdString("[" + message.toJson() + "]"));
}

void TestServerHttp::duplicateEventIsAcceptedWithDuplicateMessage()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto note = alice.sign(1, relay.now(), {}, "once");
    QCOMPARE(http.postEvent(note).status, 200);
    const auto again = http.postEvent(note);
    QCOMPARE(again.status, 200);
    QCOMPARE(again.json()["accepted"], true);
    QCOMPARE(again.json()["message"], "duplicate:");
}

void TestServerHttp::invalidEventJsonIs400()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto reply = http.post(QStringLiteral("/events"), "{\"kind\":");
    QCOMPARE(reply.status, 400);
    QVERIFY2(reply.error().rfind("invalid event JSON: ", 0) == 0, reply.body.constData());
}

void TestServerHttp::ingestRejectionUsesTheIngestStatus()
{
    RelayTestFixture relay;
    TestIdentity alice;
    TestIdentity mallory;
    HttpTestClient http(relay, &mallory.key);
    // Signed by alice, submitted by mallory: 403 with the ingest message.
    const auto forged = alice.sign(1, relay.now(), {}, "not mine");
    const auto reply = http.postEvent(forged);
    QCOMPARE(reply.status, 403);
    QCOMPARE(reply.error(), "invalid: event pubkey does not match authenticated identity");

    HttpTestClient own(relay, &alice.key);
    const auto unknownKind = own.postEvent(alice.sign(9009, relay.now(), {}, ""));
    QCOMPARE(unknownKind.status, 400);
    QCOMPARE(unknownKind.error(), "restricted: unknown event kind");
}

void TestServerHttp::invalidFiltersIs400()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto notArray = http.query(R"({"kinds":[1]})");
    QCOMPARE(notArray.status, 400);
    QVERIFY2(notArray.error().rfind("invalid filters: ", 0) == 0, notArray.body.constData());
    const auto badKinds = http.count(R"([{"kinds":"nine"}])");
    QCOMPARE(badKinds.status, 400);
    QVERIFY2(badKinds.error().rfind("invalid filters: ", 0) == 0, badKinds.body.constData());
}

void TestServerHttp::beforeIdWithoutUntilIs400Verbatim()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto reply =
        http.query(R"([{"kinds":[40100],"before_id":")" + std::string(64, 'a') + R"("}])");
    QCOMPARE(reply.status, 400);
    QCOMPARE(reply.error(), "before_id requires until to be set");
}

void TestServerHttp::invalidConsistencyIs400()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    QCOMPARE(http.query(R"([{"kinds":[1],"consistency":"strong"}])").status, 200);
    const auto reply = http.query(R"([{"kinds":[1],"consistency":"eventual"}])");
    QCOMPARE(reply.status, 400);
    QVERIFY2(reply.error().rfind("consistency must be \"strong\"", 0) == 0, reply.body.constData());
}

void TestServerHttp::pGatedQueryIs403()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto reply = http.query(R"([{"kinds":[44100]}])");
    QCOMPARE(reply.status, 403);
    QCOMPARE(reply.error(), "restricted: p-gated kinds require #p tag matching your pubkey");
    QCOMPARE(http.query(R"([{"kinds":[44100],"#p":[")" + alice.pubkey() + R"("]}])").status, 200);
}

void TestServerHttp::engramQueryIs403()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto reply = http.query(R"([{"kinds":[30174]}])");
    QCOMPARE(reply.status, 403);
    QCOMPARE(reply.error(), "restricted: agent-engram reads require authors=[self] or #p=[self]");
}

void TestServerHttp::countAnswersCountObject()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(
            http.postEvent(alice.sign(1, relay.now() - i, {}, "note " + std::to_string(i))).status,
            200);
    const auto reply = http.count(R"([{"kinds":[1],"authors":[")" + alice.pubkey() + R"("]}])");
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.body, QByteArray(R"({"count":3})"));
}

void TestServerHttp::readRouteHeaderOnQueryAndCount()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto query = http.query(R"([{"kinds":[1]}])");
    const auto count = http.count(R"([{"kinds":[1]}])");
    QVERIFY(query.header("X-Buzz-Read-Route").startsWith("writer; reason="));
    QVERIFY(count.header("X-Buzz-Read-Route").startsWith("writer; reason="));
    QVERIFY(
        http.postEvent(alice.sign(1, relay.now(), {}, "x")).header("X-Buzz-Read-Route").isEmpty());
}

void TestServerHttp::bodyOverOneMebibyteIs413()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const QByteArray huge(RelayServer::kMaxBodyBytes + 1, ' ');
    QCOMPARE(http.post(QStringLiteral("/events"), huge).status, 413);
    QCOMPARE(http.post(QStringLiteral("/query"), huge).status, 413);
    // Exactly at the limit is parsed (and fails as JSON, not as size).
    QByteArray atLimit(RelayServer::kMaxBodyBytes, ' ');
    atLimit[0] = '[';
    atLimit[atLimit.size() - 1] = ']';
    QCOMPARE(http.post(QStringLiteral("/query"), atLimit).status, 200);
}

void TestServerHttp::communitiesAreIsolated()
{
    RelayTestFixture::Options options;
    options.communities = {{"second.example", "second"}};
    RelayTestFixture relay(options);
    TestIdentity alice;
    HttpTestClient local(relay, &alice.key);
    HttpTestClient second(relay, &alice.key);
    second.setHostHeader("second.example");

    const std::string channel = relay.createChannel(alice);
    QCOMPARE(local.postEvent(alice.sign(9, relay.now(), {{"h", channel}}, "local only")).status,
             200);
    QCOMPARE(local.postEvent(alice.sign(1, relay.now(), {}, "local note")).status, 200);

    const std::string all = R"([{"kinds":[1,9,9007,39000,40100]}])";
    QVERIFY(local.query(all).json().size() >= 2);
    const auto seen = second.query(all);
    QCOMPARE(seen.status, 200);
    QCOMPARE(seen.body, QByteArray("[]"));
    QCOMPARE(second.count(all).body, QByteArray(R"({"count":0})"));
    // The second community cannot post into the first one's channel either.
    const auto crossPost = second.postEvent(alice.sign(9, relay.now(), {{"h", channel}}, "cross"));
    QVERIFY2(crossPost.status != 200 || crossPost.json()["accepted"] == false,
             crossPost.body.constData());
    QCOMPARE(local.query(R"([{"kinds":[9],"#h":[")" + channel + R"("]}])").json().size(),
             std::size_t(1));
}

void TestServerHttp::metricsExposeServerAndEngineCounters()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    QCOMPARE(http.postEvent(alice.sign(1, relay.now(), {}, "m")).status, 200);
    http.setKey(nullptr);
    QCOMPARE(http.query("[]").status, 401);
    const auto metrics = http.get(QStringLiteral("/metrics"));
    QCOMPARE(metrics.status, 200);
    QVERIFY(metrics.header("Content-Type").startsWith("text/plain"));
    QVERIFY(metrics.body.contains("buzz_http_requests_total{route=\"/events\",status=\"200\"} 1"));
    QVERIFY(metrics.body.contains("buzz_http_requests_total{route=\"/query\",status=\"401\"} 1"));
    QVERIFY(metrics.body.contains("buzz_ws_connections_active 0"));
    QVERIFY(metrics.body.contains(
        QByteArray::fromStdString(relay.engine().metricsText().substr(0, 20))));
}

// HTTP/1.1 answers leave in request order: a proxy that sends several users' requests down one
// connection must never hand one user another's answer.
void TestServerHttp::pipelinedAnswersKeepRequestOrder()
{
    RelayTestFixture::Options options;
    options.devPubkeyHeader = true;
    RelayTestFixture relay(options);
    TestIdentity alice;
    for (int i = 0; i < 3; ++i)
        QVERIFY(relay.engine()
                    .ingest(alice.sign(1, relay.now() - i, {}, "note " + std::to_string(i)),
                            RequestContext {"local", alice.pubkey(), Transport::Http})
                    .accepted());
    const QByteArray filters = R"([{"kinds":[1],"limit":3}])";
    const QByteArray health =
        "GET /health HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(relay.port()) + "\r\n\r\n";
    const QByteArray missing =
        "GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(relay.port()) + "\r\n\r\n";
    const QByteArray expected = "QCHQCNCQQCHCQQHC";
    QByteArray requests;
    for (const char kind : expected) {
        switch (kind) {
        case 'Q':
            requests += post(relay.port(), "/query", alice.pubkey(), filters);
            break;
        case 'C':
            requests += post(relay.port(), "/count", alice.pubkey(), filters);
            break;
        case 'H':
            requests += health;
            break;
        default:
            requests += missing;
        }
    }
    const auto answers = pipeline(relay.port(), requests, std::size_t(expected.size()));
    QByteArray order;
    for (const RawAnswer &answer : answers)
        order += kindOf(answer);
    QCOMPARE(order, expected);
    for (const RawAnswer &answer : answers) {
        if (kindOf(answer) == 'Q')
            QCOMPARE(nlohmann::json::parse(answer.body.toStdString()).size(), std::size_t(3));
        if (kindOf(answer) == 'C')
            QCOMPARE(answer.body, QByteArray(R"({"count":3})"));
    }
}

// A request refused from its head (413 here) is answered after the requests before it on the
// connection, never in their place.
void TestServerHttp::refusalWaitsForEarlierAnswers()
{
    RelayTestFixture::Options options;
    options.devPubkeyHeader = true;
    RelayTestFixture relay(options);
    TestIdentity alice;
    const QByteArray filters = R"([{"kinds":[1],"limit":3}])";
    const QByteArray requests = post(relay.port(), "/query", alice.pubkey(), filters)
        + post(relay.port(), "/count", alice.pubkey(), filters)
        + "POST /events HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(relay.port())
        + "\r\nContent-Length: 4000000000\r\n\r\n";
    const auto answers = pipeline(relay.port(), requests, 3);
    QCOMPARE(answers.size(), std::size_t(3));
    QCOMPARE(kindOf(answers[0]), 'Q');
    QCOMPARE(kindOf(answers[1]), 'C');
    QCOMPARE(answers[2].status, 413);

    // A WebSocket handshake behind an unanswered request: its 101 would overtake that answer.
    const QByteArray handshake =
        "GET / HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(relay.port())
        + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";
    const auto refused = pipeline(
        relay.port(), post(relay.port(), "/query", alice.pubkey(), filters) + handshake, 2);
    QCOMPARE(refused.size(), std::size_t(2));
    QCOMPARE(kindOf(refused[0]), 'Q');
    QCOMPARE(refused[1].status, 400);
    QCOMPARE(relay.server().sessionCount(), std::size_t(0));
}

// The relay-wide outbound bound (relay/README.md "Limits"): with it spent, an answer over 1 MiB is
// refused as retryable on both transports; a small one is served.
void TestServerHttp::relayWideBoundRefusesLargeAnswers()
{
    RelayTestFixture::Options options;
    options.maxRelayOutboundBytes = 4 * 1024 * 1024;
    RelayTestFixture relay(options);
    TestIdentity alice;
    const std::string content(100 * 1024, 'b');
    for (int i = 0; i < 40; ++i) // 4 MB of event JSON, 8 MB charged while assembled
        QVERIFY(relay.engine()
                    .ingest(alice.sign(1, relay.now() - i, {}, content + std::to_string(i)),
                            RequestContext {"local", alice.pubkey(), Transport::Http})
                    .accepted());
    HttpTestClient http(relay, &alice.key);
    const auto refused = http.query(R"([{"kinds":[1],"limit":40}])");
    QCOMPARE(refused.status, 503);
    QCOMPARE(refused.error(), std::string(OutboundBudget::kFullMessage));
    QCOMPARE(refused.header("Retry-After"), QByteArray("1"));
    const auto small = http.query(R"([{"kinds":[1],"limit":4}])");
    QCOMPARE(small.status, 200);
    QCOMPARE(small.json().size(), std::size_t(4));

    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.sendReq("all", {R"({"kinds":[1],"limit":40})"});
    const auto closed = ws.waitForClosed("all");
    QCOMPARE(closed[2], "error: retryable: " + std::string(OutboundBudget::kFullMessage));
    QCOMPARE(relay.server().metrics().counter(
                 "buzz_http_reads_refused_total{reason=\"outbound_memory\"}"),
             std::uint64_t(1));
    QCOMPARE(
        relay.server().metrics().counter("buzz_ws_reads_refused_total{reason=\"outbound_memory\"}"),
        std::uint64_t(1));
}

QTEST_GUILESS_MAIN(TestServerHttp)
#include "test_server_http.moc"
