// RelaySocket against the real in-process relay: NIP-42, live subscriptions that survive a
// reconnect, one-shot fetch/count, and AUTH rejection as a terminal state.

#include "RelayTestFixture.h"
#include "net/client/HttpBridge.h"
#include "net/client/RelaySocket.h"
#include "net/client/RequestLog.h"

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
        RelaySocket socket(relay.wsUrl(), &log);
        socket.setSecretKey(std::make_shared<const nostr::SecretKey>(user.key.clone()));
        QSignalSpy events(&socket, &RelaySocket::eventReceived);
        const QString id = socket.subscribe({canvasFilter(channel)}, QStringLiteral("test_watch"));
        socket.open();
        QTRY_COMPARE_WITH_TIMEOUT(socket.state(), RelaySocket::State::Connected, 5000);

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

        // A reconnect (e.g. after a stall) keeps the subscription and does not lose later events.
        socket.reconnectNow();
        QTRY_COMPARE_WITH_TIMEOUT(socket.state(), RelaySocket::State::Connected, 5000);
        QVERIFY(publish("two"));
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(events.cbegin(), events.cend(),
                                             [](const QList<QVariant> &args) {
                                                 return args.at(1).value<nostr::Event>().content
                                                     == "two";
                                             }),
                                 5000);

        // One-shot reads over the socket.
        QEventLoop loop;
        std::optional<client::Result<std::vector<nostr::Event>>> fetched;
        // The lambda must outlive the suspended coroutine: keep it named.
        auto runFetch = [&]() -> QCoro::Task<> {
            fetched.emplace(co_await socket.fetch(client::filters(canvasFilter(channel)),
                                                  QStringLiteral("test_fetch")));
            loop.quit();
        };
        auto fetchTask = runFetch();
        if (!fetched)
            loop.exec();
        QVERIFY(fetched && *fetched);
        QVERIFY((*fetched)->size() >= 2);
        socket.close();
        QCOMPARE(socket.state(), RelaySocket::State::Disconnected);
    }

    void authRejectionIsTerminalUntilTheUserActs()
    {
        // The fixture's fixed clock is months away from the wall clock our AUTH event is signed
        // with: the relay must refuse it (timestamp outside ±60 s).
        relay::test::RelayTestFixture relay;
        QVERIFY(relay.isListening());
        relay::test::TestIdentity user;
        RelaySocket socket(relay.wsUrl(), nullptr);
        RelaySocket::Timing timing;
        timing.initialBackoff = std::chrono::milliseconds(20);
        timing.maxBackoff = std::chrono::milliseconds(40);
        socket.setTiming(timing);
        socket.setSecretKey(std::make_shared<const nostr::SecretKey>(user.key.clone()));
        QSignalSpy rejected(&socket, &RelaySocket::authRejected);
        socket.open();
        QTRY_COMPARE_WITH_TIMEOUT(socket.state(), RelaySocket::State::AuthRejected, 5000);
        QCOMPARE(rejected.count(), 1);
        QVERIFY(rejected.at(0).at(0).toString().startsWith(QLatin1String("auth-required")));
        // With a 20 ms backoff a retry would show within this window; a terminal state shows
        // nothing.
        QSignalSpy changes(&socket, &RelaySocket::stateChanged);
        QVERIFY(!changes.wait(300));
        QCOMPARE(socket.state(), RelaySocket::State::AuthRejected);
        socket.reconnectNow(); // the user acts: one new attempt
        QTRY_COMPARE_WITH_TIMEOUT(rejected.count(), 2, 5000);
    }

    void unreachableRelayBacksOff()
    {
        RelaySocket socket(QUrl(QStringLiteral("ws://127.0.0.1:1")), nullptr);
        RelaySocket::Timing timing;
        timing.initialBackoff = std::chrono::milliseconds(10);
        timing.maxBackoff = std::chrono::milliseconds(20);
        socket.setTiming(timing);
        relay::test::TestIdentity user;
        socket.setSecretKey(std::make_shared<const nostr::SecretKey>(user.key.clone()));
        QSignalSpy changes(&socket, &RelaySocket::stateChanged);
        socket.open();
        // Connecting → Backoff → Connecting → Backoff …: it keeps trying.
        QTRY_VERIFY_WITH_TIMEOUT(std::count_if(changes.cbegin(), changes.cend(),
                                               [](const QList<QVariant> &args) {
                                                   return args.at(0).value<RelaySocket::State>()
                                                       == RelaySocket::State::Backoff;
                                               })
                                     >= 3,
                                 5000);
        socket.close();
    }
};

QTEST_GUILESS_MAIN(TestClientSocket)
#include "test_client_socket.moc"
