// The connection state machine against the real in-process relay behind the recording proxy's
// faults: a relay that CLOSEs a live subscription, freezes, is down at start, or drops every
// connection; an HTTP request that goes unanswered; a new key on an open socket.

#include "CanvasTestSupport.h"
#include "net/client/HttpBridgeClient.h"
#include "net/client/RelayConnection.h"
#include "net/client/RelaySocket.h"
#include "net/client/RequestLog.h"
#include "net/client/Signer.h"

#include <QSignalSpy>
#include <QTest>

using namespace buzz;
using namespace std::chrono_literals;
using client::RelaySocket;
using State = client::RelaySocket::State;
using SubscriptionState = client::RelaySocket::SubscriptionState;

namespace {

RelaySocket::Timing fastTiming()
{
    RelaySocket::Timing timing;
    timing.initialBackoff = 50ms;
    timing.maxBackoff = 200ms;
    timing.connectTimeout = 2000ms;
    timing.pingInterval = 50ms;
    timing.stallAfter = 400ms;
    timing.reconnectAfterStall = 60s;
    timing.probeTimeout = 200ms;
    return timing;
}

int countState(const QSignalSpy &spy, State state)
{
    return int(std::count_if(spy.cbegin(), spy.cend(), [state](const QList<QVariant> &args) {
        return args.at(0).value<State>() == state;
    }));
}

} // namespace

class TestClientConnection : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::ProxiedRelay> m_relay;
    relay::test::TestIdentity m_user;
    std::string m_channel;
    std::unique_ptr<client::RelayConnection> m_connection;

    RelaySocket &socket() { return *m_connection->socket(); }
    test::RecordingProxy &proxy() { return m_relay->proxy; }

    nostr::Filter liveFilter(const std::string &channel) const
    {
        nostr::Filter filter;
        filter.kinds = std::vector<int> {40100};
        filter.tags['h'] = {channel};
        filter.since = m_relay->relay->now(); // live only, as CanvasService::watch asks
        return filter;
    }
    bool publish(const relay::test::TestIdentity &author, const std::string &channel,
                 const std::string &content)
    {
        const auto event = author.sign(40100, m_relay->relay->now(), {{"h", channel}}, content);
        return m_relay->relay->engine()
            .ingest(event, relay::RequestContext {"local", author.pubkey(), relay::Transport::Http})
            .accepted();
    }
    static int received(const QSignalSpy &events, const std::string &content)
    {
        return int(std::count_if(events.cbegin(), events.cend(), [&](const QList<QVariant> &args) {
            return args.at(1).value<nostr::Event>().content == content;
        }));
    }
    // Subscribes to the test channel and waits until the socket is connected and it is live.
    QString openLive()
    {
        const QString id = socket().subscribe({liveFilter(m_channel)}, QStringLiteral("test_live"));
        socket().open();
        [[maybe_unused]] const bool live = QTest::qWaitFor(
            [&] { return socket().subscriptionState(id) == SubscriptionState::Live; }, 5000);
        return id;
    }

private slots:
    void init()
    {
        m_relay = std::make_unique<test::ProxiedRelay>();
        QVERIFY(m_relay->start());
        m_channel = m_relay->relay->createChannel(m_user, "connection");
        m_connection = std::make_unique<client::RelayConnection>(proxy().url());
        m_connection->signer()->setKey(
            std::make_shared<const nostr::SecretKey>(m_user.key.clone()));
        socket().setTiming(fastTiming());
    }

    void cleanup()
    {
        m_connection.reset();
        m_relay.reset();
    }

    void relayCloseOfALiveSubscriptionResubscribesWithoutLosingEvents()
    {
        RelaySocket::Timing timing = fastTiming();
        timing.initialBackoff = 1000ms; // room to commit a change while the subscription is gone
        socket().setTiming(timing);
        const QString id = openLive();
        QCOMPARE(socket().subscriptionState(id), SubscriptionState::Live);
        QSignalSpy events(&socket(), &RelaySocket::eventReceived);
        QSignalSpy resynced(&socket(), &RelaySocket::subscriptionResynced);

        QCOMPARE(proxy().closeSubscriptions("40100", QStringLiteral("error: query timed out")), 1);
        QTRY_COMPARE_WITH_TIMEOUT(socket().subscriptionState(id), SubscriptionState::Resubscribing,
                                  5000);
        QCOMPARE(socket().subscriptionError(id), QStringLiteral("error: query timed out"));
        QVERIFY(socket().resubscribeIn(id) > 0ms);
        QCOMPARE(socket().state(), State::Connected); // the connection itself is fine
        QVERIFY(publish(m_user, m_channel, "during the gap"));
        QCOMPARE(socket().subscriptionState(id), SubscriptionState::Resubscribing);

        QTRY_COMPARE_WITH_TIMEOUT(socket().subscriptionState(id), SubscriptionState::Live, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(received(events, "during the gap"), 1, 5000);
        QCOMPARE(resynced.count(), 1);
        QVERIFY(publish(m_user, m_channel, "after"));
        QTRY_COMPARE_WITH_TIMEOUT(received(events, "after"), 1, 5000);

        bool logged = false;
        for (const auto &entry : m_connection->requestLog()->entries())
            logged = logged
                || (entry.method == QLatin1String("WS REQ") && entry.status == "retryable"
                    && entry.errorDetail == QLatin1String("error: query timed out"));
        QVERIFY(logged);
    }

    void permanentRefusalWaitsForANewConnection()
    {
        const QString id = openLive();
        QCOMPARE(socket().subscriptionState(id), SubscriptionState::Live);
        QSignalSpy states(&socket(), &RelaySocket::subscriptionStateChanged);
        proxy().closeSubscriptions("40100", QStringLiteral("restricted: not a channel member"));
        QTRY_COMPARE_WITH_TIMEOUT(socket().subscriptionState(id), SubscriptionState::Refused, 5000);
        states.clear();
        QVERIFY(!states.wait(300)); // a 50 ms backoff would have re-sent it by now
        QCOMPARE(proxy().openSubscriptions("40100"), 0);
        socket().reconnectNow();
        QTRY_COMPARE_WITH_TIMEOUT(socket().subscriptionState(id), SubscriptionState::Live, 5000);
    }

    void frozenRelayIsStalledNotConnected()
    {
        const QString id = openLive();
        QSignalSpy states(&socket(), &RelaySocket::stateChanged);
        QSignalSpy recovered(&socket(), &RelaySocket::recovered);
        proxy().setFrozen(true);
        QTRY_COMPARE_WITH_TIMEOUT(socket().state(), State::Stalled, 5000);
        QVERIFY(socket().silentFor() >= fastTiming().stallAfter);
        QCOMPARE(socket().lastError(), QStringLiteral("the relay stopped answering"));
        // It answers again (it was busy, not gone): the same connection carries on.
        proxy().setFrozen(false);
        QTRY_COMPARE_WITH_TIMEOUT(socket().state(), State::Connected, 5000);
        QCOMPARE(recovered.count(), 1);
        QCOMPARE(countState(states, State::Connecting), 0);
        QCOMPARE(socket().subscriptionState(id), SubscriptionState::Live);
    }

    void unansweredRequestMakesTheSocketProbe()
    {
        RelaySocket::Timing timing = fastTiming();
        timing.pingInterval = 60s; // passive detection would take a minute
        timing.stallAfter = 60s;
        socket().setTiming(timing);
        openLive();
        QCOMPARE(socket().state(), State::Connected);
        proxy().setFrozen(true);
        auto response = test::await(
            m_connection->bridge()->query(client::filters(liveFilter(m_channel)),
                                          client::options(QStringLiteral("test"), 300ms)));
        QVERIFY(!response);
        QCOMPARE(response.error().kind, client::RelayError::Kind::Timeout);
        QTRY_COMPARE_WITH_TIMEOUT(socket().state(), State::Stalled, 2000);
        proxy().setFrozen(false);
        QTRY_COMPARE_WITH_TIMEOUT(socket().state(), State::Connected, 5000);
    }

    void longStallIsReplacedByANewConnection()
    {
        RelaySocket::Timing timing = fastTiming();
        timing.reconnectAfterStall = 300ms;
        timing.connectTimeout = 300ms;
        socket().setTiming(timing);
        const QString id = openLive();
        QSignalSpy states(&socket(), &RelaySocket::stateChanged);
        QSignalSpy resynced(&socket(), &RelaySocket::subscriptionResynced);
        QSignalSpy recovered(&socket(), &RelaySocket::recovered);
        proxy().setFrozen(true);
        QTRY_VERIFY_WITH_TIMEOUT(countState(states, State::Reconnecting) >= 1, 5000);
        QCOMPARE(states.first().at(0).value<State>(), State::Stalled);
        QCOMPARE(socket().subscriptionState(id), SubscriptionState::Pending);
        proxy().setFrozen(false);
        QTRY_COMPARE_WITH_TIMEOUT(socket().state(), State::Connected, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(socket().subscriptionState(id), SubscriptionState::Live, 5000);
        QCOMPARE(resynced.count(), 1);
        QCOMPARE(recovered.count(), 1);
    }

    void relayDownAtStartIsRetriedUntilItComesUp()
    {
        proxy().setRefusing(true);
        QSignalSpy recovered(&socket(), &RelaySocket::recovered);
        const QString id = socket().subscribe({liveFilter(m_channel)}, QStringLiteral("test_live"));
        socket().open();
        QTRY_VERIFY_WITH_TIMEOUT(socket().failedAttempts() >= 2, 5000);
        QVERIFY(socket().state() == State::Reconnecting || socket().state() == State::Connecting);
        QVERIFY(socket().lastError().startsWith(QLatin1String("could not connect")));
        proxy().setRefusing(false);
        QTRY_COMPARE_WITH_TIMEOUT(socket().state(), State::Connected, 5000);
        QCOMPARE(recovered.count(), 1);
        QCOMPARE(socket().failedAttempts(), 0);
        QVERIFY(socket().lastError().isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(socket().subscriptionState(id), SubscriptionState::Live, 5000);
    }

    void retryNowSkipsTheWait()
    {
        RelaySocket::Timing timing = fastTiming();
        timing.initialBackoff = 60s;
        timing.maxBackoff = 60s;
        socket().setTiming(timing);
        proxy().setRefusing(true);
        socket().open();
        QTRY_COMPARE_WITH_TIMEOUT(socket().state(), State::Reconnecting, 5000);
        QVERIFY(socket().nextAttemptIn() > 30s);
        proxy().setRefusing(false);
        socket().reconnectNow();
        QTRY_COMPARE_WITH_TIMEOUT(socket().state(), State::Connected, 5000);
    }

    void droppedConnectionReconnectsAndResyncs()
    {
        const QString id = openLive();
        QSignalSpy states(&socket(), &RelaySocket::stateChanged);
        QSignalSpy resynced(&socket(), &RelaySocket::subscriptionResynced);
        QSignalSpy recovered(&socket(), &RelaySocket::recovered);
        proxy().dropConnections();
        QTRY_VERIFY_WITH_TIMEOUT(countState(states, State::Reconnecting) == 1, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(socket().state(), State::Connected, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(resynced.count(), 1, 5000);
        QCOMPARE(resynced.at(0).at(0).toString(), id);
        QCOMPARE(recovered.count(), 1);
    }

    void repeatedChallengeOnASignedInConnectionIsNotARejection()
    {
        const QString id = openLive();
        QCOMPARE(socket().state(), State::Connected);
        QSignalSpy states(&socket(), &RelaySocket::stateChanged);
        // We answer a second challenge; the relay refuses a second AUTH on one connection.
        proxy().sendToClients(R"(["AUTH","a-second-challenge"])");
        QVERIFY(!states.wait(500));
        QCOMPARE(socket().state(), State::Connected);
        QSignalSpy events(&socket(), &RelaySocket::eventReceived);
        QVERIFY(publish(m_user, m_channel, "still live"));
        QTRY_COMPARE_WITH_TIMEOUT(received(events, "still live"), 1, 5000);
        QCOMPARE(socket().subscriptionState(id), SubscriptionState::Live);
    }

    void newKeyReauthenticatesTheOpenSocket()
    {
        // Only bob can read his private channel: what the socket may see depends on who it is.
        relay::test::TestIdentity bob;
        const std::string secret = m_relay->relay->createChannel(bob, "secret", "private");
        const QString id = socket().subscribe({liveFilter(secret)}, QStringLiteral("test_live"));
        socket().open();
        QTRY_COMPARE_WITH_TIMEOUT(socket().subscriptionState(id), SubscriptionState::Refused, 5000);
        QCOMPARE(socket().subscriptionError(id),
                 QStringLiteral("restricted: not a channel member"));
        QCOMPARE(socket().authenticatedAs(), QString::fromStdString(m_user.pubkey()));

        QSignalSpy events(&socket(), &RelaySocket::eventReceived);
        m_connection->signer()->setKey(std::make_shared<const nostr::SecretKey>(bob.key.clone()));
        QTRY_COMPARE_WITH_TIMEOUT(socket().authenticatedAs(), QString::fromStdString(bob.pubkey()),
                                  5000);
        QCOMPARE(socket().state(), State::Connected);
        QTRY_COMPARE_WITH_TIMEOUT(socket().subscriptionState(id), SubscriptionState::Live, 5000);
        QVERIFY(publish(bob, secret, "for bob"));
        QTRY_COMPARE_WITH_TIMEOUT(received(events, "for bob"), 1, 5000);
        // The HTTP bridge signs with the same, new key.
        nostr::Filter filter = liveFilter(secret);
        filter.since.reset();
        auto response = test::await(m_connection->bridge()->query(
            client::filters(filter), client::options(QStringLiteral("test"))));
        QVERIFY(response);
        QCOMPARE(response->events.size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestClientConnection)
#include "test_client_connection.moc"
