// HTTP connection limits, decided from the request head before QHttpServer reads a body: body
// size (413 from Content-Length alone), head size (431), head/body/idle timeouts, malformed
// WebSocket upgrades, and connections freed once closed. Raw TCP clients, so the exact bytes on
// the wire are what is tested.

#include "RelayTestFixture.h"
#include "RelayTestFixtureHttpClient.h"
#include "RelayTestFixtureWsClient.h"
#include "relay/query/QueryService.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QtTest>

#include <memory>
#include <vector>

using namespace buzz;
using namespace buzz::relay;
using namespace buzz::relay::test;

namespace {

// A raw HTTP client on the relay's thread: waits run the event loop, never block it.
class RawClient
{
public:
    bool open(quint16 port)
    {
        QSignalSpy connected(&m_socket, &QTcpSocket::connected);
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        if (!connected.wait(5000))
            return false;
        QObject::connect(&m_socket, &QTcpSocket::readyRead,
                         [this] { m_received += m_socket.readAll(); });
        return true;
    }
    void write(const QByteArray &bytes) { m_socket.write(bytes); }
    QTcpSocket &socket() { return m_socket; }
    const QByteArray &received() const { return m_received; }
    bool closedByRelay() const { return m_socket.state() == QAbstractSocket::UnconnectedState; }
    // Waits until `text` arrived (true) or the relay closed without it / the timeout (false).
    bool waitFor(const QByteArray &text, int timeoutMs = 5000)
    {
        QElapsedTimer timer;
        timer.start();
        while (!m_received.contains(text)) {
            if (closedByRelay() || timer.elapsed() > timeoutMs)
                return m_received.contains(text);
            QSignalSpy ready(&m_socket, &QTcpSocket::readyRead);
            ready.wait(50);
        }
        return true;
    }
    bool waitClosed(int timeoutMs = 5000)
    {
        if (closedByRelay())
            return true;
        QSignalSpy gone(&m_socket, &QTcpSocket::disconnected);
        return gone.wait(timeoutMs) || closedByRelay();
    }

private:
    QTcpSocket m_socket;
    QByteArray m_received;
};

QByteArray head(quint16 port, const QByteArray &requestLine, const QByteArray &extraHeaders = {})
{
    return requestLine + "\r\nHost: 127.0.0.1:" + QByteArray::number(port) + "\r\n" + extraHeaders
        + "\r\n";
}

RelayTestFixture::Options fastTimeouts()
{
    RelayTestFixture::Options options;
    options.httpLimits.headTimeoutMs = 300;
    options.httpLimits.bodyTimeoutMs = 300;
    options.httpLimits.idleTimeoutMs = 400;
    return options;
}

} // namespace

class TestServerLimits : public QObject
{
    Q_OBJECT
private slots:
    void hugeContentLengthIsRefusedFromTheHeaders();
    void chunkedBodyOverTheLimitIsRefused();
    void oversizedHeadIs431();
    void closedConnectionsAreFreed();
    void halfSentHeadTimesOutWith408();
    void stalledBodyTimesOutWith408();
    void idleConnectionIsClosed();
    void keepAliveRequestsStillWork();
    void pipelinedBytesAreCheckedOnce();
    void upgradeWithoutConnectionUpgradeIsAnswered();
    void unknownHostUpgradeIs404();
    void upgradeHeadersKeepEveryLimit_data();
    void upgradeHeadersKeepEveryLimit();
    void upgradeHeadersKeepTheTimeouts();
    void onlyARealWebSocketHandshakeLeavesHttp_data();
    void onlyARealWebSocketHandshakeLeavesHttp();
    void aRealHandshakeIsUpgraded();
    void queryFiltersAndAnswerBytesAreCapped();
};

void TestServerLimits::hugeContentLengthIsRefusedFromTheHeaders()
{
    RelayTestFixture relay;
    RawClient client;
    QVERIFY(client.open(relay.port()));
    // No body is ever sent: the answer must come from the headers alone.
    client.write(head(relay.port(), "POST /events HTTP/1.1",
                      "Content-Type: application/json\r\nContent-Length: 4000000000\r\n"));
    QVERIFY2(client.waitFor("length limit exceeded"), client.received().constData());
    QVERIFY(client.received().startsWith("HTTP/1.1 413 "));
    QVERIFY(client.waitClosed());
    QCOMPARE(relay.server().metrics().counter("buzz_http_refused_total{reason=\"body_too_large\"}"),
             std::uint64_t(1));

    // A client that streams the body anyway is answered and cut, not buffered.
    RawClient streaming;
    QVERIFY(streaming.open(relay.port()));
    streaming.write(head(relay.port(), "POST /query HTTP/1.1", "Content-Length: 4000000000\r\n"));
    const QByteArray chunk(256 * 1024, '[');
    for (int i = 0; i < 16 && !streaming.closedByRelay(); ++i)
        streaming.write(chunk);
    QVERIFY2(streaming.waitFor("HTTP/1.1 413 "), streaming.received().constData());
    QVERIFY(streaming.waitClosed());
}

void TestServerLimits::chunkedBodyOverTheLimitIsRefused()
{
    RelayTestFixture relay;
    RawClient client;
    QVERIFY(client.open(relay.port()));
    client.write(head(relay.port(), "POST /query HTTP/1.1", "Transfer-Encoding: chunked\r\n"));
    client.write("200000\r\n"); // one chunk of 2 MiB announced
    QVERIFY2(client.waitFor("HTTP/1.1 413 "), client.received().constData());
    QVERIFY(client.waitClosed());
}

void TestServerLimits::oversizedHeadIs431()
{
    RelayTestFixture relay;
    RawClient client;
    QVERIFY(client.open(relay.port()));
    const QByteArray filler(HttpLimits {}.maxHeadBytes, 'a');
    client.write("GET /info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: " + filler);
    QVERIFY2(client.waitFor("HTTP/1.1 431 "), client.received().constData());
    QVERIFY(client.waitClosed());

    // Just under the limit is served.
    HttpTestClient http(relay);
    const QByteArray fits(HttpLimits {}.maxHeadBytes - 512, 'a');
    QCOMPARE(http.get(QStringLiteral("/health"), {{"X-Filler", fits}}).status, 200);
}

void TestServerLimits::closedConnectionsAreFreed()
{
    RelayTestFixture relay;
    std::vector<std::unique_ptr<RawClient>> clients;
    for (int i = 0; i < 20; ++i) {
        clients.push_back(std::make_unique<RawClient>());
        QVERIFY(clients.back()->open(relay.port()));
        clients.back()->write("POST /events HTTP/1.1\r\nHost: 127.0.0.1\r\n"); // head unfinished
    }
    QTRY_COMPARE_WITH_TIMEOUT(relay.server().openConnections(), 20, 5000);
    clients.clear();
    // Every socket object (and what QHttpServer kept for it) is released once closed.
    QTRY_COMPARE_WITH_TIMEOUT(relay.server().openConnections(), 0, 5000);

    // Refused requests too, whether or not the client hangs up first.
    for (int i = 0; i < 20; ++i) {
        clients.push_back(std::make_unique<RawClient>());
        QVERIFY(clients.back()->open(relay.port()));
        clients.back()->write(
            head(relay.port(), "POST /events HTTP/1.1", "Content-Length: 900000000\r\n"));
    }
    for (auto &client : clients)
        QVERIFY(client->waitFor("HTTP/1.1 413 "));
    QTRY_COMPARE_WITH_TIMEOUT(relay.server().openConnections(), 0, 5000);
}

void TestServerLimits::halfSentHeadTimesOutWith408()
{
    RelayTestFixture relay(fastTimeouts());
    std::vector<std::unique_ptr<RawClient>> clients;
    for (int i = 0; i < 30; ++i) {
        clients.push_back(std::make_unique<RawClient>());
        QVERIFY(clients.back()->open(relay.port()));
        clients.back()->write("POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
    }
    for (auto &client : clients) {
        QVERIFY2(client->waitFor("HTTP/1.1 408 "), client->received().constData());
        QVERIFY(client->waitClosed());
    }
    QTRY_COMPARE_WITH_TIMEOUT(relay.server().openConnections(), 0, 5000);
    // The relay still serves.
    HttpTestClient http(relay);
    QCOMPARE(http.get(QStringLiteral("/health")).status, 200);
}

void TestServerLimits::stalledBodyTimesOutWith408()
{
    RelayTestFixture relay(fastTimeouts());
    RawClient client;
    QVERIFY(client.open(relay.port()));
    client.write(head(relay.port(), "POST /query HTTP/1.1", "Content-Length: 100\r\n") + "[");
    QVERIFY2(client.waitFor("HTTP/1.1 408 "), client.received().constData());
    QVERIFY(client.waitClosed());
}

void TestServerLimits::idleConnectionIsClosed()
{
    RelayTestFixture relay(fastTimeouts());
    RawClient silent;
    QVERIFY(silent.open(relay.port()));
    QVERIFY(silent.waitClosed());
    QVERIFY(silent.received().isEmpty()); // no request, no answer

    // After an answered request the keep-alive connection closes once idle.
    RawClient served;
    QVERIFY(served.open(relay.port()));
    served.write(head(relay.port(), "GET /health HTTP/1.1"));
    QVERIFY(served.waitFor("ok"));
    QVERIFY(served.waitClosed());
    QCOMPARE(
        relay.server().metrics().counter("buzz_http_connections_closed_total{reason=\"idle\"}"),
        std::uint64_t(2));
}

void TestServerLimits::keepAliveRequestsStillWork()
{
    RelayTestFixture relay;
    RawClient client;
    QVERIFY(client.open(relay.port()));
    // Two pipelined requests, the first with a body, in one write: the guard follows the body
    // and lets the second head through.
    client.write(head(relay.port(), "POST /nowhere HTTP/1.1", "Content-Length: 2\r\n") + "[]"
                 + head(relay.port(), "GET /health HTTP/1.1"));
    QVERIFY2(client.waitFor("\r\n\r\nok"), client.received().constData());
    QVERIFY(client.received().startsWith("HTTP/1.1 404 "));
    // And a later request on the same connection.
    client.write(head(relay.port(), "POST /count HTTP/1.1", "Content-Length: 2\r\n") + "[]");
    QVERIFY2(client.waitFor("missing Nostr auth"), client.received().constData());
    QVERIFY(!client.closedByRelay());
}

// QHttpServer reads one request per readyRead; what it leaves in the buffer must not be taken
// for new bytes (a body half there would otherwise be counted twice and the guard lose its place).
void TestServerLimits::pipelinedBytesAreCheckedOnce()
{
    RelayTestFixture relay;
    RawClient client;
    QVERIFY(client.open(relay.port()));
    const QByteArray body(100, ' ');
    client.write(head(relay.port(), "GET /health HTTP/1.1")
                 + head(relay.port(), "POST /count HTTP/1.1", "Content-Length: 100\r\n")
                 + body.left(50));
    QVERIFY2(client.waitFor("\r\n\r\nok"), client.received().constData());
    client.write(body.mid(50));
    QVERIFY2(client.waitFor("missing Nostr auth"), client.received().constData());
    QVERIFY(!client.received().contains("HTTP/1.1 400 "));
    QVERIFY(!client.closedByRelay());
}

void TestServerLimits::upgradeWithoutConnectionUpgradeIsAnswered()
{
    RelayTestFixture relay;
    RawClient client;
    QVERIFY(client.open(relay.port()));
    client.write(head(relay.port(), "GET / HTTP/1.1",
                      "Upgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n"));
    QVERIFY2(client.waitFor("Connection header did not include 'upgrade'"),
             client.received().constData());
    QVERIFY(client.received().startsWith("HTTP/1.1 426 "));
    QVERIFY(client.waitClosed());
}

void TestServerLimits::unknownHostUpgradeIs404()
{
    RelayTestFixture relay;
    RawClient client;
    QVERIFY(client.open(relay.port()));
    client.write("GET / HTTP/1.1\r\nHost: unknown.example\r\nUpgrade: websocket\r\n"
                 "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n");
    QVERIFY(client.waitFor("no community"));
    QVERIFY2(client.received().startsWith("HTTP/1.1 404 "), client.received().constData());
    QVERIFY(client.received().endsWith(
        R"({"error":"relay: no community is configured for this host"})"));
    QVERIFY(!client.received().contains("101"));
    QVERIFY(client.waitClosed());
    QCOMPARE(relay.server().sessionCount(), std::size_t(0));
}

void TestServerLimits::upgradeHeadersKeepEveryLimit_data()
{
    QTest::addColumn<QByteArray>("headers");
    QTest::newRow("connection upgrade") << QByteArray("Connection: upgrade\r\n");
    QTest::newRow("h2c") << QByteArray("Connection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                                       "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n");
    QTest::newRow("websocket among others")
        << QByteArray("Connection: keep-alive, upgrade\r\nUpgrade: websocket, h2c\r\n");
}

// A request asking for an upgrade the relay does not make is an ordinary request: it is answered,
// and every later request on the connection is held to the same limits as any other.
void TestServerLimits::upgradeHeadersKeepEveryLimit()
{
    QFETCH(QByteArray, headers);
    RelayTestFixture relay;
    RawClient client;
    QVERIFY(client.open(relay.port()));
    client.write(head(relay.port(), "GET /health HTTP/1.1", headers));
    if (!headers.contains("websocket")) {
        QVERIFY2(client.waitFor("\r\n\r\nok"), client.received().constData());
        client.write(head(relay.port(), "POST /events HTTP/1.1",
                          "Content-Type: application/json\r\nContent-Length: 4000000000\r\n"));
        const QByteArray chunk(256 * 1024, '{');
        for (int i = 0; i < 16 && !client.closedByRelay(); ++i)
            client.write(chunk);
        QVERIFY2(client.waitFor("length limit exceeded"), client.received().constData());
        QVERIFY(client.received().contains("HTTP/1.1 413 "));
    } else {
        // Not a WebSocket handshake (two protocols offered): refused, never left to QHttpServer.
        QVERIFY2(client.waitFor("HTTP/1.1 400 "), client.received().constData());
        QVERIFY(!client.received().contains("\r\n\r\nok"));
    }
    QVERIFY(client.waitClosed());
    QCOMPARE(relay.server().sessionCount(), std::size_t(0));
}

void TestServerLimits::upgradeHeadersKeepTheTimeouts()
{
    RelayTestFixture relay(fastTimeouts());
    // Idle after an answered upgrade-asking request: closed like any idle connection.
    RawClient idle;
    QVERIFY(idle.open(relay.port()));
    idle.write(
        head(relay.port(), "GET /health HTTP/1.1", "Connection: Upgrade\r\nUpgrade: h2c\r\n"));
    QVERIFY2(idle.waitFor("\r\n\r\nok"), idle.received().constData());
    QVERIFY(idle.waitClosed());

    // A head left half-sent after it: 408.
    RawClient slow;
    QVERIFY(slow.open(relay.port()));
    slow.write(head(relay.port(), "GET /health HTTP/1.1", "Connection: upgrade\r\n"));
    QVERIFY2(slow.waitFor("\r\n\r\nok"), slow.received().constData());
    slow.write("POST /query HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
    QVERIFY2(slow.waitFor("HTTP/1.1 408 "), slow.received().constData());
    QVERIFY(slow.waitClosed());

    // A body left half-sent by a request that itself asks for an upgrade: 408.
    RawClient stalled;
    QVERIFY(stalled.open(relay.port()));
    stalled.write(head(relay.port(), "POST /query HTTP/1.1",
                       "Connection: upgrade\r\nUpgrade: h2c\r\nContent-Length: 100\r\n")
                  + "[");
    QVERIFY2(stalled.waitFor("HTTP/1.1 408 "), stalled.received().constData());
    QVERIFY(stalled.waitClosed());
}

void TestServerLimits::onlyARealWebSocketHandshakeLeavesHttp_data()
{
    QTest::addColumn<QByteArray>("request");
    QTest::addColumn<QByteArray>("status");
    const QByteArray handshake = "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                 "Sec-WebSocket-Version: 13\r\n";
    const QByteArray key = "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n";
    QTest::newRow("other path") << QByteArray("GET /health HTTP/1.1\r\n") + handshake + key
                                << QByteArray("400");
    QTest::newRow("no key") << QByteArray("GET / HTTP/1.1\r\n") + handshake << QByteArray("400");
    QTest::newRow("short key") << QByteArray("GET / HTTP/1.1\r\n") + handshake
            + "Sec-WebSocket-Key: c2hvcnQ=\r\n"
                               << QByteArray("400");
    QTest::newRow("old version")
        << QByteArray("GET / HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                      "Sec-WebSocket-Version: 8\r\n")
            + key
        << QByteArray("400");
    QTest::newRow("post with a body")
        << QByteArray("POST / HTTP/1.1\r\nContent-Length: 4000000000\r\n") + handshake + key
        << QByteArray("405");
    QTest::newRow("get with a body")
        << QByteArray("GET / HTTP/1.1\r\nContent-Length: 4000000000\r\n") + handshake + key
        << QByteArray("400");
}

// Only GET / with Upgrade: websocket, Connection: upgrade, a 16-byte Sec-WebSocket-Key and
// version 13 becomes a WebSocket; any other request naming WebSocket is refused and closed, and
// nothing it sends after its head is read.
void TestServerLimits::onlyARealWebSocketHandshakeLeavesHttp()
{
    QFETCH(QByteArray, request);
    QFETCH(QByteArray, status);
    RelayTestFixture relay;
    RawClient client;
    QVERIFY(client.open(relay.port()));
    client.write(request + "Host: 127.0.0.1:" + QByteArray::number(relay.port()) + "\r\n\r\n");
    const QByteArray chunk(256 * 1024, '\x81');
    for (int i = 0; i < 8 && !client.closedByRelay(); ++i)
        client.write(chunk);
    QVERIFY2(client.waitFor("HTTP/1.1 " + status + " "), client.received().constData());
    QVERIFY(!client.received().contains("101"));
    QVERIFY(client.waitClosed());
    QCOMPARE(relay.server().sessionCount(), std::size_t(0));
}

void TestServerLimits::aRealHandshakeIsUpgraded()
{
    RelayTestFixture relay;
    RawClient client;
    QVERIFY(client.open(relay.port()));
    client.write(
        head(relay.port(), "GET /?x=1 HTTP/1.1",
             "Upgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
             "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"));
    QVERIFY2(client.waitFor("[\"AUTH\""), client.received().constData());
    QVERIFY(client.received().startsWith("HTTP/1.1 101 "));
    QVERIFY(client.received().contains("s3pPLMBiTxaQ9kYGzzhZRbK+xOo="));
    QTRY_COMPARE_WITH_TIMEOUT(relay.server().sessionCount(), std::size_t(1), 5000);
}

void TestServerLimits::queryFiltersAndAnswerBytesAreCapped()
{
    RelayTestFixture relay;
    TestIdentity alice;
    HttpTestClient http(relay, &alice.key);
    const auto filters = [](int count) {
        std::string json = "[";
        for (int i = 0; i < count; ++i)
            json += std::string(i ? "," : "") + R"({"kinds":[1],"limit":1})";
        return json + "]";
    };
    for (const bool counting : {false, true}) {
        const auto reply = counting ? http.count(filters(11)) : http.query(filters(11));
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.error(),
                 std::string("invalid filters: request contains 11 filters, maximum is 10"));
        QCOMPARE((counting ? http.count(filters(10)) : http.query(filters(10))).status, 200);
    }

    // Enough large notes that one answer would pass the byte bound.
    const std::string content(200 * 1024, 'c');
    const int notes = int(query::QueryService::kMaxResponseBytes / content.size()) + 2;
    for (int i = 0; i < notes; ++i)
        QVERIFY(relay.engine()
                    .ingest(alice.sign(1, relay.now() - i, {}, content + std::to_string(i)),
                            RequestContext {"local", alice.pubkey(), Transport::Http})
                    .accepted());
    auto reply = http.query(R"([{"kinds":[1],"limit":1000}])");
    QCOMPARE(reply.status, 400);
    QCOMPARE(reply.error(), std::string(query::QueryService::kResponseTooLarge));
    reply = http.query(R"([{"kinds":[1],"limit":20}])");
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.json().size(), std::size_t(20));

    // The same bound on a REQ's history: CLOSED with the reason, never a silently short history.
    WsTestClient ws(relay.wsUrl());
    QVERIFY(ws.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    ws.sendReq("all", {R"({"kinds":[1],"limit":1000})"});
    const auto closed = ws.waitForClosed("all", 20000);
    QVERIFY2(closed.size() == 3 && closed[2] == query::QueryService::kResponseTooLarge,
             closed.dump().c_str());
}

QTEST_GUILESS_MAIN(TestServerLimits)
#include "test_server_limits.moc"
