// WebSocket liveness and capacity (reference §5.6): the relay pings every connection and drops a
// peer after 3 unanswered pings; connections beyond BUZZ_MAX_CONNECTIONS are closed silently.
// The ping interval is shortened so the test takes milliseconds, not minutes.

#include "RelayTestFixture.h"
#include "RelayTestFixtureWsClient.h"

#include <QSignalSpy>
#include <QTcpSocket>
#include <QtTest>

using namespace buzz;
using namespace buzz::relay;
using namespace buzz::relay::test;

namespace {
constexpr int kPingIntervalMs = 40;

RelayTestFixture::Options liveness(int maxConnections = 10000)
{
    RelayTestFixture::Options options;
    options.pingIntervalMs = kPingIntervalMs;
    options.maxConnections = maxConnections;
    return options;
}

// A WebSocket peer that completes the upgrade and then never answers anything: the relay's
// pings go unanswered (QWebSocket would pong by itself, so this one speaks raw TCP).
class SilentPeer
{
public:
    bool open(quint16 port)
    {
        // The relay runs on this thread: wait by running the event loop (QSignalSpy::wait), never
        // with the socket's blocking waitFor* calls, which would starve it.
        QSignalSpy connected(&m_socket, &QTcpSocket::connected);
        m_socket.connectToHost(QStringLiteral("127.0.0.1"), port);
        if (!connected.wait(5000))
            return false;
        m_socket.write("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port)
                       + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                         "Sec-WebSocket-Version: 13\r\n\r\n");
        while (!m_received.contains("\r\n\r\n")) {
            QSignalSpy ready(&m_socket, &QTcpSocket::readyRead);
            if (m_socket.bytesAvailable() == 0 && !ready.wait(5000))
                return false;
            m_received += m_socket.readAll();
        }
        QObject::connect(&m_socket, &QTcpSocket::readyRead,
                         [this] { m_received += m_socket.readAll(); });
        return m_received.startsWith("HTTP/1.1 101");
    }
    // Frames after the upgrade response; the AUTH challenge is ASCII, so a 0x89 byte can only be
    // the header of a ping frame (FIN + opcode 9).
    bool receivedPing() const
    {
        return m_received.mid(m_received.indexOf("\r\n\r\n") + 4).contains(char(0x89));
    }
    QTcpSocket &socket() { return m_socket; }

private:
    QTcpSocket m_socket;
    QByteArray m_received;
};

} // namespace

class TestServerLiveness : public QObject
{
    Q_OBJECT

private slots:
    void silentPeerIsDroppedAfterThreeUnansweredPings()
    {
        RelayTestFixture relay(liveness());
        SilentPeer peer;
        QVERIFY(peer.open(relay.port()));
        QSignalSpy closed(&peer.socket(), &QTcpSocket::disconnected);
        QVERIFY(closed.wait(50 * kPingIntervalMs));
        QVERIFY2(peer.receivedPing(), "the relay never pinged");
        QCOMPARE(
            relay.server().metrics().counter("buzz_ws_disconnects_total{reason=\"ping_timeout\"}"),
            std::uint64_t(1));
        QVERIFY(relay.server().metrics().counter("buzz_ws_pings_total") >= 3);
    }

    void answeringPeerStaysConnected()
    {
        // QWebSocket answers every ping with a pong: long after three intervals it is still
        // there and still served.
        RelayTestFixture relay(liveness());
        TestIdentity alice;
        WsTestClient client(relay.wsUrl());
        QVERIFY(client.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
        QTRY_VERIFY_WITH_TIMEOUT(relay.server().metrics().counter("buzz_ws_pings_total") >= 8,
                                 50 * kPingIntervalMs);
        QVERIFY(client.isConnected());
        QCOMPARE(
            relay.server().metrics().counter("buzz_ws_disconnects_total{reason=\"ping_timeout\"}"),
            std::uint64_t(0));
        client.sendReq("still-here", {"{\"kinds\":[1],\"limit\":1}"});
        QVERIFY(!client.waitForType("EOSE").is_null());
    }

    void connectionsBeyondTheCapAreClosedSilently()
    {
        RelayTestFixture relay(liveness(2));
        TestIdentity alice;
        auto first = std::make_unique<WsTestClient>(relay.wsUrl());
        WsTestClient second(relay.wsUrl());
        QVERIFY(first->connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
        QVERIFY(second.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));

        WsTestClient third(relay.wsUrl());
        QVERIFY(!third.connectAndWaitChallenge(2000)); // no AUTH challenge, no NOTICE
        QVERIFY(third.waitDisconnected());
        QCOMPARE(relay.server().metrics().counter(
                     "buzz_ws_connections_refused_total{reason=\"max_connections\"}"),
                 std::uint64_t(1));
        QVERIFY(first->isConnected());
        QVERIFY(second.isConnected());

        // A slot that frees up is available again.
        first.reset();
        QTRY_COMPARE_WITH_TIMEOUT(relay.server().sessionCount(), std::size_t(1), 5000);
        WsTestClient fourth(relay.wsUrl());
        QVERIFY(fourth.connectAndAuthenticate(alice.key, relay.relayUrl(), relay.now()));
    }
};

QTEST_MAIN(TestServerLiveness)
#include "test_server_liveness.moc"
