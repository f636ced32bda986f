// RelaySocket against the real in-process relay: NIP-42, live subscriptions that survive a
// reconnect, AUTH rejection as a terminal state, backoff while the relay is unreachable.

#include "RelayTestFixture.h"
#include "net/client/RelaySocket.h"
#include "net/client/RequestLog.h"
#include "net/client/Signer.h"

#include <QSignalSpy>
#include <QTest>

using namespace buzz;
using client::RelaySocket;

class TestClientSocket : public QObject
{
    Q_OBJECT

    static relay::test::RelayTestFixture::Options wallClock()
    {
        relay::test::RelayTestFixture::Options options;
        options.systemClock = true;
        return options;
    }

    static nostr::Filter canvasFilter(const std::string &channel)
    {
        nostr::Filter filter;
        filter.kinds = std::vector<int> {40100};
        filter.tags['h'] = {channel};
        return filter;
    }

private slots:
    void authenticatesSubscribesAndSurvivesReconnect()
    {
        relay::test::RelayTestFixture relay(wallClock());
        QVERIFY(relay.isListening());
        relay::test::TestIdentity user;
        const std::string channel = relay.createChannel(user, "socket");
        client::RequestLog log;
        client::Signer signer;
        signer.setKey(std::make_shared<const nostr::SecretKey>(user.key.clone()));
        RelaySocket socket(relay.wsUrl(), &signer, &log);
        QSignalSpy events(&socket, &RelaySocket::eventReceived);
        QSignalSpy resynced(&socket, &RelaySocket::subscriptionResynced);
        const QString id = socket.subscribe({canvasFilter(channel)}, QStringLiteral("test_watch"));
        socket.open();
        QTRY_COMPARE_WITH_TIMEOUT(socket.state(), RelaySocket::State::Connected, 5000);
        QCOMPARE(socket.authenticatedAs(), QString::fromStdString(user.pubkey()));
        QTRY_COMPARE_WITH_TIMEOUT(socket.subscriptionState(id),
                                  RelaySocket::SubscriptionState::Live, 5000);
        QCOMPARE(resynced.count(), 0); // the first EOSE follows no gap

        auto publish = [&](const std::string &content) {
            const auto event = user.sign(40100, relay.now(), {{"h", channel}}, content);
            return relay.engine()
                .ingest(event,
                        relay::RequestContext {"local", user.pubkey(), relay::Transport::Http})
                .accepted();
        };
        QVERIFY(publish("one"));
        QTRY_COMPARE_WITH_TIMEOUT(events.count(), 1, 5000);
        QCOMPARE(events.at(0).at(0).toString(), id);

        // A reconnect (e.g. after a stall) keeps the subscription and does not lose later events;
        // being live again after the gap is announced so the owner can re-read what it shows.
        socket.reconnectNow();
        QTRY_COMPARE_WITH_TIMEOUT(socket.state(), RelaySocket::State::Connected, 5000);
        QVERIFY(publish("two"));
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(events.cbegin(), events.cend(),
                                             [](const QList<QVariant> &args) {
                                                 return args.at(1).value<nostr::Event>().content
                                                     == "two";
                                             }),
                                 5000);
        QTRY_COMPARE_WITH_TIMEOUT(resynced.count(), 1, 5000);
        QCOMPARE(resynced.at(0).at(0).toString(), id);
        socket.close();
        QCOMPARE(socket.state(), RelaySocket::State::Idle);
    }

    void authRejectionIsTerminalUntilTheUserActs()
    {
        // The fixture's fixed clock is months away from the wall clock our AUTH event is signed
        // with: the relay must refuse it (timestamp outside ±60 s).
        relay::test::RelayTestFixture relay;
        QVERIFY(relay.isListening());
        relay::test::TestIdentity user;
        client::Signer signer;
        signer.setKey(std::make_shared<const nostr::SecretKey>(user.key.clone()));
        RelaySocket socket(relay.wsUrl(), &signer, nullptr);
        RelaySocket::Timing timing;
        timing.initialBackoff = std::chrono::milliseconds(20);
        timing.maxBackoff = std::chrono::milliseconds(40);
        socket.setTiming(timing);
        QSignalSpy changes(&socket, &RelaySocket::stateChanged);
        const auto rejections = [&changes]() -> int {
            return std::count_if(changes.cbegin(), changes.cend(), [](const QList<QVariant> &args) {
                return args.at(0).value<RelaySocket::State>() == RelaySocket::State::AuthRejected;
            });
        };
        socket.open();
        QTRY_COMPARE_WITH_TIMEOUT(socket.state(), RelaySocket::State::AuthRejected, 5000);
        QCOMPARE(rejections(), 1);
        QVERIFY(socket.lastError().startsWith(QLatin1String("auth-required")));
        // With a 20 ms backoff a retry would show within this window; a terminal state shows
        // nothing.
        changes.clear();
        QVERIFY(!changes.wait(300));
        QCOMPARE(socket.state(), RelaySocket::State::AuthRejected);
        socket.reconnectNow(); // the user acts: one new attempt
        QTRY_COMPARE_WITH_TIMEOUT(rejections(), 1, 5000);
        QCOMPARE(changes.first().at(0).value<RelaySocket::State>(), RelaySocket::State::Connecting);
    }

    void unreachableRelayBacksOff()
    {
        relay::test::TestIdentity user;
        client::Signer signer;
        signer.setKey(std::make_shared<const nostr::SecretKey>(user.key.clone()));
        RelaySocket socket(QUrl(QStringLiteral("ws://127.0.0.1:1")), &signer, nullptr);
        RelaySocket::Timing timing;
        timing.initialBackoff = std::chrono::milliseconds(10);
        timing.maxBackoff = std::chrono::milliseconds(20);
        socket.setTiming(timing);
        QSignalSpy changes(&socket, &RelaySocket::stateChanged);
        socket.open();
        // Connecting → Reconnecting → Connecting → Reconnecting …: it keeps trying, and counts.
        QTRY_VERIFY_WITH_TIMEOUT(std::count_if(changes.cbegin(), changes.cend(),
                                               [](const QList<QVariant> &args) {
                                                   return args.at(0).value<RelaySocket::State>()
                                                       == RelaySocket::State::Reconnecting;
                                               })
                                     >= 3,
                                 5000);
        QVERIFY(socket.failedAttempts() >= 3);
        QVERIFY(socket.lastError().startsWith(QLatin1String("could not connect")));
        socket.close();
        QCOMPARE(socket.state(), RelaySocket::State::Idle);
    }
};

QTEST_GUILESS_MAIN(TestClientSocket)
#include "test_client_socket.moc"
