// WebSocket liveness and capacity (docs/buzz-protocol.md §WebSocket limits): the relay pings every
// connection and drops a peer after 3 unanswered pings; connections beyond BUZZ_MAX_CONNECTIONS are
// closed silently. The ping interval is shortened so the test takes milliseconds, not minutes.

#include "RelayTestFixture.h"
#include "RelayTestFixtureWsClient.h"
#include "net/nostr/Nip42.h"

#include <nlohmann/json.hpp>

#include <QElapsedTimer>
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

    // A client text frame (clients must mask; a zero key keeps the payload as is).
    void sendText(const std::string &text)
    {
        QByteArray frame;
        frame.append(char(0x81));
        if (text.size() < 126) {
            frame.append(char(0x80 | text.size()));
        } else {
            frame.append(char(0x80 | 126));
            frame.append(char((text.size() >> 8) & 0xFF));
            frame.append(char(text.size() & 0xFF));
        }
        frame.append(4, '\0');
        frame.append(text.data(), qsizetype(text.size()));
        m_socket.write(frame);
    }
    // Waits (running the event loop) until the received bytes contain `needle`.
    bool waitFor(const QByteArray &needle, int timeoutMs = 5000)
    {
        QElapsedTimer timer;
        timer.start();
        while (!m_received.contains(needle)) {
            QSignalSpy ready(&m_socket, &QTcpSocket::readyRead);
            if (timer.elapsed() > timeoutMs || !ready.wait(timeoutMs))
                return m_received.contains(needle);
        }
        return true;
    }
    // The AUTH challenge: the 64 hex characters after ["AUTH","
    std::string challenge() const
    {
        const qsizetype at = m_received.indexOf("[\"AUTH\",\"");
        return at < 0 ? std::string() : m_received.mid(at + 9, 64).toStdString();
    }
    // Stop reading: Qt keeps at most one byte, the kernel buffers fill, the relay's writes pile up.
    void stopReading()
    {
        m_socket.disconnect();
        m_socket.setReadBufferSize(1);
    }

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

    void peerThatStopsReadingIsCutAsASlowConsumer()
    {
        // Pings off the table (long interval): only the send bound may end this connection.
        RelayTestFixture::Options options;
        options.pingIntervalMs = 600000;
        RelayTestFixture relay(options);
        TestIdentity alice;
        const std::string channel = relay.createChannel(alice, "firehose");
        QVERIFY(!channel.empty());

        SilentPeer peer;
        QVERIFY(peer.open(relay.port()));
        QVERIFY(peer.waitFor("[\"AUTH\""));
        const auto auth = nostr::nip42::buildAuthEvent(alice.key, relay.relayUrl(),
                                                       peer.challenge(), relay.now());
        peer.sendText("[\"AUTH\"," + auth.toJson() + "]");
        QVERIFY(peer.waitFor(QByteArray::fromStdString("[\"OK\",\"" + auth.id + "\",true")));
        peer.sendText("[\"REQ\",\"live\",{\"kinds\":[9],\"#h\":[\"" + channel
                      + "\"],\"limit\":1}]");
        QVERIFY(peer.waitFor("[\"EOSE\",\"live\""));
        peer.stopReading();

        // Publish until the relay gives up on the peer (the kernel buffers absorb a few MB first).
        const std::string filler(2000, 'x');
        int published = 0;
        const auto cut = [&] {
            return relay.server().metrics().counter(
                       "buzz_ws_disconnects_total{reason=\"slow_consumer\"}")
                > 0;
        };
        QElapsedTimer timer;
        timer.start();
        while (!cut() && timer.elapsed() < 30000) {
            for (int i = 0; i < 200; ++i, ++published)
                relay.engine().ingest(alice.sign(9, relay.now(), {{"h", channel}},
                                                 filler + std::to_string(published)),
                                      RequestContext {"local", alice.pubkey(), Transport::Http});
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        }
        QVERIFY2(cut(),
                 qPrintable(QStringLiteral("still connected after %1 events").arg(published)));
        QVERIFY(relay.server().metrics().counter("buzz_ws_live_events_dropped_total") >= 2);
        // The relay let go of the connection (the peer, not reading, cannot notice by itself).
        QTRY_COMPARE_WITH_TIMEOUT(relay.server().sessionCount(), std::size_t(0), 5000);
        qInfo("cut after %d live events", published);
    }

    void peerThatStopsReadingHistoryIsCut()
    {
        // History answers are never dropped, but they count: a peer that keeps asking for history
        // without reading is cut once what waits for it passes the per-connection byte bound.
        RelayTestFixture::Options options;
        options.pingIntervalMs = 600000;
        options.maxOutboundBytes = 1024 * 1024;
        RelayTestFixture relay(options);
        TestIdentity alice;
        const std::string channel = relay.createChannel(alice, "archive");
        QVERIFY(!channel.empty());
        const std::string filler(2000, 'x');
        for (int i = 0; i < 300; ++i)
            QVERIFY(relay.engine()
                        .ingest(alice.sign(9, relay.now(), {{"h", channel}},
                                           filler + std::to_string(i)),
                                RequestContext {"local", alice.pubkey(), Transport::Http})
                        .accepted());

        SilentPeer peer;
        QVERIFY(peer.open(relay.port()));
        QVERIFY(peer.waitFor("[\"AUTH\""));
        const auto auth = nostr::nip42::buildAuthEvent(alice.key, relay.relayUrl(),
                                                       peer.challenge(), relay.now());
        peer.sendText("[\"AUTH\"," + auth.toJson() + "]");
        QVERIFY(peer.waitFor(QByteArray::fromStdString("[\"OK\",\"" + auth.id + "\",true")));
        peer.stopReading();

        const auto cut = [&] {
            return relay.server().metrics().counter(
                       "buzz_ws_disconnects_total{reason=\"slow_consumer\"}")
                > 0;
        };
        int requests = 0;
        QElapsedTimer timer;
        timer.start();
        while (!cut() && timer.elapsed() < 30000 && requests < 400) {
            peer.sendText("[\"REQ\",\"h" + std::to_string(requests++)
                          + "\",{\"kinds\":[9],\"#h\":[\"" + channel + "\"],\"limit\":1000}]");
            QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        }
        QTRY_VERIFY_WITH_TIMEOUT(cut(), 10000);
        QTRY_COMPARE_WITH_TIMEOUT(relay.server().sessionCount(), std::size_t(0), 5000);
        qInfo("cut after %d history requests", requests);
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
