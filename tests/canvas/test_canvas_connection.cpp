// CanvasService over a connection that misbehaves: gateway errors on a write (the outcome is
// unknown, not a failure), the relay closing the live subscription (a change made meanwhile still
// arrives), and a new identity on an open connection.

#include "CanvasTestSupport.h"
#include "canvas/Identity.h"
#include "net/client/Signer.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace buzz;
using buzz::canvas::CanvasRevision;
using buzz::canvas::SaveOutcome;
using buzz::test::await;
using buzz::test::CanvasClient;
using buzz::test::RecordingProxy;
using Kind = buzz::canvas::SaveOutcome::Kind;
using SubscriptionState = buzz::client::RelaySocket::SubscriptionState;
using namespace std::chrono_literals;

class TestCanvasConnection : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::ProxiedRelay> m_relay;
    std::vector<std::unique_ptr<CanvasClient>> m_clients;
    QString m_channel;

    CanvasClient &newClient()
    {
        m_clients.push_back(std::make_unique<CanvasClient>(m_relay->proxy.url()));
        return *m_clients.back();
    }
    CanvasClient &owner() { return *m_clients.front(); }
    RecordingProxy &proxy() { return m_relay->proxy; }
    std::size_t eventsPosted() const { return m_relay->proxy.forwarded("/events").size(); }
    std::size_t revisionCount(CanvasClient &client)
    {
        auto page = await(client.service->history(m_channel, std::nullopt, 1000));
        return page ? page->revisions.size() : 0;
    }
    bool loggedStrong(CanvasClient &client, const QString &caller)
    {
        for (const auto &entry : client.log().entries()) {
            if (entry.caller == caller && entry.strong)
                return true;
        }
        return false;
    }

private slots:
    void init()
    {
        m_relay = std::make_unique<test::ProxiedRelay>();
        QVERIFY(m_relay->start());
        CanvasClient &first = newClient();
        m_channel =
            QString::fromStdString(m_relay->relay->createChannel(first.identity, "connection"));
        QVERIFY(!m_channel.isEmpty());
    }

    void cleanup()
    {
        m_clients.clear(); // clients (and their sockets) go before the relay
        m_relay.reset();
    }

    void gatewayTimeoutAfterTheRelayCommittedIsReconciledToSaved()
    {
        CanvasClient &alice = owner();
        proxy().injectFault(RecordingProxy::Fault::GatewayTimeout, RecordingProxy::eventsPost());
        const SaveOutcome outcome =
            await(alice.service->save(m_channel, std::nullopt, QStringLiteral("landed\n")));
        COMPARE_KIND(outcome, Kind::SavedVerified);
        QCOMPARE(eventsPosted(), std::size_t(1)); // found by the existence check, not re-sent
        QVERIFY(loggedStrong(alice, QStringLiteral("canvas_existence")));
        QCOMPARE(revisionCount(alice), std::size_t(1));
    }

    void badGatewayBeforeTheRelayIsResentWithTheSameEvent()
    {
        CanvasClient &alice = owner();
        proxy().injectFault(RecordingProxy::Fault::BadGateway, RecordingProxy::eventsPost());
        const SaveOutcome outcome =
            await(alice.service->save(m_channel, std::nullopt, QStringLiteral("resent\n")));
        COMPARE_KIND(outcome, Kind::SavedVerified);
        QVERIFY(loggedStrong(alice, QStringLiteral("canvas_existence")));
        QCOMPARE(eventsPosted(), std::size_t(1)); // only the re-send reached the relay
        QVERIFY(proxy().forwarded("/events")[0].body.contains(outcome.saved->eventId.toLatin1()));
        QCOMPARE(revisionCount(alice), std::size_t(1));
    }

    void gatewayErrorWithAFailedCheckIsUnknownAndRetryable()
    {
        CanvasClient &alice = owner();
        // The write lands behind a 504 and the existence check is lost too: nobody can tell.
        proxy().injectFault(RecordingProxy::Fault::GatewayTimeout, RecordingProxy::eventsPost());
        proxy().injectFault(RecordingProxy::Fault::BadGateway,
                            RecordingProxy::queryContaining("\"ids\""));
        const SaveOutcome unknown =
            await(alice.service->save(m_channel, std::nullopt, QStringLiteral("maybe\n")));
        COMPARE_KIND(unknown, Kind::OutcomeUnknown);
        QVERIFY(unknown.pending);
        QCOMPARE(unknown.mine, QStringLiteral("maybe\n"));
        // Retry sends the same signed event again (never a second revision) and reconciles.
        const SaveOutcome settled = await(alice.service->resubmit(unknown));
        COMPARE_KIND(settled, Kind::SavedVerified);
        QCOMPARE(settled.saved->eventId, QString::fromStdString(unknown.pending->id));
        QCOMPARE(revisionCount(alice), std::size_t(1));
    }

    void restoreBehindAGatewayTimeoutIsReconciled()
    {
        CanvasClient &alice = owner();
        const SaveOutcome first =
            await(alice.service->save(m_channel, std::nullopt, QStringLiteral("one\n")));
        COMPARE_KIND(first, Kind::SavedVerified);
        const SaveOutcome second =
            await(alice.service->save(m_channel, first.saved, QStringLiteral("two\n")));
        COMPARE_KIND(second, Kind::SavedVerified);
        proxy().injectFault(RecordingProxy::Fault::GatewayTimeout, RecordingProxy::eventsPost());
        const SaveOutcome restored =
            await(alice.service->restore(m_channel, first.saved->eventId, second.saved->eventId));
        COMPARE_KIND(restored, Kind::SavedVerified);
        QCOMPARE(revisionCount(alice), std::size_t(3));
    }

    void changeMissedWhileTheRelayClosedTheWatchIsReported()
    {
        CanvasClient &alice = owner();
        CanvasClient &bob = newClient();
        // Bob's clock is five minutes slow: his revisions are signed "before" alice started
        // watching, and still reach her (the watch allows for another writer's clock skew).
        const qint64 slow = -300;
        bob.service->setClock([slow] { return QDateTime::currentSecsSinceEpoch() + slow; });
        const SaveOutcome first =
            await(bob.service->save(m_channel, std::nullopt, QStringLiteral("first\n")));
        COMPARE_KIND(first, Kind::SavedVerified);

        client::RelaySocket::Timing timing;
        timing.initialBackoff = 200ms;
        alice.connection->socket()->setTiming(timing);
        QSignalSpy changed(alice.watch.get(), &canvas::CanvasWatch::canvasChanged);
        QSignalSpy states(alice.watch.get(), &canvas::CanvasWatch::watchStateChanged);
        alice.watch->watch(m_channel);
        QTRY_COMPARE_WITH_TIMEOUT(alice.watch->watchState(m_channel), SubscriptionState::Live,
                                  5000);

        QCOMPARE(proxy().closeSubscriptions("40100", QStringLiteral("error: query timed out")), 1);
        QTRY_COMPARE_WITH_TIMEOUT(alice.watch->watchState(m_channel),
                                  SubscriptionState::Resubscribing, 5000);
        QCOMPARE(alice.watch->watchError(m_channel), QStringLiteral("error: query timed out"));
        const SaveOutcome second =
            await(bob.service->save(m_channel, first.saved, QStringLiteral("second\n")));
        COMPARE_KIND(second, Kind::SavedVerified);

        QTRY_COMPARE_WITH_TIMEOUT(alice.watch->watchState(m_channel), SubscriptionState::Live,
                                  5000);
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(changed.cbegin(), changed.cend(),
                                             [&](const QList<QVariant> &args) {
                                                 return args.at(1).value<CanvasRevision>().eventId
                                                     == second.saved->eventId;
                                             }),
                                 5000);
        // The revision may come first from the resubscription's catch-up; the strong re-read of the
        // head follows it either way.
        QTRY_VERIFY_WITH_TIMEOUT(loggedStrong(alice, QStringLiteral("canvas_watch_resync")), 5000);
        QVERIFY(std::any_of(states.cbegin(), states.cend(), [](const QList<QVariant> &args) {
            return args.at(1).value<SubscriptionState>() == SubscriptionState::Resubscribing;
        }));
    }

    void newIdentityReauthenticatesTheOpenConnection()
    {
        QTemporaryDir dir;
        canvas::Identity identity(dir.path(), canvas::Identity::KeychainUse::Never);
        relay::test::TestIdentity first;
        relay::test::TestIdentity second;
        QVERIFY(identity.useExplicit(QString::fromStdString(first.key.toNsec())));
        // The identity's signer is the connection's: one key, no copies.
        client::RelayConnection connection(proxy().url(), identity.signer());
        canvas::CanvasService service(&connection);
        connection.socket()->open();
        QTRY_COMPARE_WITH_TIMEOUT(connection.socket()->authenticatedAs(),
                                  QString::fromStdString(first.pubkey()), 5000);

        const auto imported = await(identity.import(QString::fromStdString(second.key.toNsec())));
        QVERIFY(imported);
        QCOMPARE(connection.secretKey()->publicKeyHex(), second.pubkey());
        QTRY_COMPARE_WITH_TIMEOUT(connection.socket()->authenticatedAs(),
                                  QString::fromStdString(second.pubkey()), 5000);
        QCOMPARE(connection.socket()->state(), client::RelaySocket::State::Connected);
        // Writes are signed by the new identity too.
        const SaveOutcome saved =
            await(service.save(m_channel, std::nullopt, QStringLiteral("by second\n")));
        COMPARE_KIND(saved, Kind::SavedVerified);
        QCOMPARE(saved.saved->author, QString::fromStdString(second.pubkey()));
    }
};

QTEST_GUILESS_MAIN(TestCanvasConnection)
#include "test_canvas_connection.moc"
