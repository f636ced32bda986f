// CanvasService over a connection that misbehaves: gateway errors on a write (the outcome is
// unknown, not a failure).

#include "CanvasTestSupport.h"

#include <QTest>

using namespace buzz;
using buzz::canvas::CanvasRevision;
using buzz::canvas::SaveOutcome;
using buzz::test::await;
using buzz::test::CanvasClient;
using buzz::test::RecordingProxy;
using Kind = buzz::canvas::SaveOutcome::Kind;

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
};

QTEST_GUILESS_MAIN(TestCanvasConnection)
#include "test_canvas_connection.moc"
