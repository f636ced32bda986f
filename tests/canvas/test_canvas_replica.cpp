// CanvasService against a real in-process relay WITH a read replica and a non-zero read budget,
// where the replica is paused: display reads are observably stale (served by the replica, old
// head), yet every save, conflict, verification and restore decision is made against the writer.
// Replication is driven by hand on a manual relay clock (no driver thread, nothing sleeps), so the
// paused replica stays "fresh" within the budget and the router keeps choosing it.

#include "CanvasTestSupport.h"

#include "relay/replication/RelayClock.h"
#include "relay/replication/sqlite/ReplicaSet.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace buzz;
using buzz::canvas::CanvasRevision;
using buzz::canvas::SaveOutcome;
using buzz::test::await;
using buzz::test::CanvasClient;
using buzz::test::RecordingProxy;
using Kind = buzz::canvas::SaveOutcome::Kind;

namespace {

constexpr std::int64_t kReadBudgetMs = 5000;
#ifdef BUZZ_CANVAS_CLI
const QString kCli = QStringLiteral(BUZZ_CANVAS_CLI);
#endif

// A relay with one replica on a manual clock, behind a recording proxy (the relay's URL is the
// proxy's, so NIP-42/NIP-98 match).
struct ReplicatedRelay
{
    RecordingProxy proxy;
    std::shared_ptr<relay::replication::RelayClock> clock =
        relay::replication::RelayClock::manual(QDateTime::currentMSecsSinceEpoch());
    std::unique_ptr<relay::RelayHost> host;

    bool start()
    {
        if (!proxy.listen())
            return false;
        relay::RelayHost::Config setup;
        setup.engine.replicas = 1;
        setup.engine.replicaLagMs = 0;
        setup.engine.readBudgetMs = kReadBudgetMs;
        setup.engine.readPoolSize = 2;
        setup.engine.relayClock = clock;
        setup.engine.replicationDriver = false;
        setup.server.relayUrl = QStringLiteral("ws://127.0.0.1:%1").arg(proxy.port()).toStdString();
        // NIP-98 / NIP-42 are signed by the client with the wall clock.
        setup.server.clock = [] {
            return QDateTime::currentSecsSinceEpoch();
        };
        host = std::make_unique<relay::RelayHost>(std::move(setup));
        if (!host->isOpen() || !host->engine().replicaSet() || !host->start())
            return false;
        proxy.setUpstreamPort(host->port());
        return true;
    }

    relay::RelayEngine &engine() { return host->engine(); }
    relay::replication::ReplicaSet &replicas() { return *engine().replicaSet(); }
    void pause() { replicas().replica(0).setPaused(true); }
    void resume() { replicas().replica(0).setPaused(false); }
    // One heartbeat, then replay everything (lag 0) to unpaused replicas.
    void catchUp()
    {
        replicas().heartbeat();
        replicas().pump();
    }
    std::string createChannel(const relay::test::TestIdentity &owner)
    {
        const std::string channel = relay::test::newChannelId();
        const auto event = owner.sign(
            9007, clock->nowSec(), {{"h", channel}, {"name", "replica"}, {"visibility", "open"}});
        const auto result = engine().ingest(
            event, relay::RequestContext {"local", owner.pubkey(), relay::Transport::Http});
        return result.accepted() ? channel : std::string();
    }
};

// The newest log entry written by `caller`.
std::optional<client::RequestLogEntry> lastEntry(CanvasClient &client, const QString &caller)
{
    const auto &entries = client.log().entries();
    for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
        if (it->caller == caller)
            return *it;
    }
    return std::nullopt;
}

QStringList routesOf(CanvasClient &client, const QString &caller)
{
    QStringList routes;
    for (const auto &entry : client.log().entries()) {
        if (entry.caller == caller)
            routes << entry.route;
    }
    return routes;
}

} // namespace

class TestCanvasReplica : public QObject
{
    Q_OBJECT

    std::unique_ptr<ReplicatedRelay> m_relay;
    std::vector<std::unique_ptr<CanvasClient>> m_clients;
    QString m_channel;

    CanvasClient &newClient()
    {
        m_clients.push_back(std::make_unique<CanvasClient>(m_relay->proxy.url()));
        auto clock = m_relay->clock;
        // created_at follows the relay's (frozen) clock, so the ingest window never drifts.
        m_clients.back()->service->setClock([clock] { return clock->nowSec(); });
        return *m_clients.back();
    }
    CanvasClient &owner() { return *m_clients.front(); }
    RecordingProxy &proxy() { return m_relay->proxy; }

    CanvasRevision saveOk(CanvasClient &client, std::optional<CanvasRevision> base,
                          const QString &text)
    {
        const SaveOutcome outcome = await(client.service->save(m_channel, base, text));
        if (outcome.kind != Kind::SavedVerified || !outcome.saved)
            qWarning() << "save failed:" << outcome.kindName()
                       << (outcome.error ? outcome.error->detail : QString());
        return outcome.saved.value_or(CanvasRevision {});
    }
    CanvasRevision strongHead(CanvasClient &client)
    {
        auto head = await(client.service->head(m_channel, canvas::ReadIntent::Strong));
        return head && *head ? **head : CanvasRevision {};
    }
    // The display head as the replica serves it; fails the test unless the replica served it.
    std::optional<CanvasRevision> displayHeadFromReplica(CanvasClient &client, bool *ok)
    {
        *ok = false;
        auto head = await(client.service->head(m_channel));
        if (!head) {
            qWarning() << "display head failed:" << head.error().detail;
            return std::nullopt;
        }
        const auto entry = lastEntry(client, QStringLiteral("canvas_head_display"));
        if (!entry || !entry->route.startsWith(QLatin1String("replica"))) {
            qWarning() << "display head route:" << (entry ? entry->route : QStringLiteral("none"));
            return std::nullopt;
        }
        *ok = true;
        return *head;
    }
    // Every history page (size 3), newest first; `routes` gets each page's read route.
    QStringList pageThroughHistory(CanvasClient &client, QStringList *routes)
    {
        client.log().clear();
        QStringList seen;
        std::optional<canvas::HistoryCursor> cursor;
        for (int page = 0; page < 10; ++page) {
            auto result = await(client.service->history(m_channel, cursor, 3));
            if (!result)
                return {QStringLiteral("history failed: ") + result.error().detail};
            for (const auto &revision : result->revisions)
                seen << revision.eventId;
            if (!result->nextCursor)
                break;
            cursor = result->nextCursor;
        }
        *routes = routesOf(client, QStringLiteral("history_page"));
        return seen;
    }
    void verifyWriteGatingReadsOnWriter(CanvasClient &client, const QStringList &callers)
    {
        for (const QString &caller : callers) {
            const QStringList routes = routesOf(client, caller);
            QVERIFY2(!routes.isEmpty(), qPrintable(caller + QStringLiteral(" never ran")));
            for (const QString &route : routes)
                QVERIFY2(route.startsWith(QLatin1String("writer")),
                         qPrintable(caller + QStringLiteral(": ") + route));
        }
    }

private slots:
    void init()
    {
        m_relay = std::make_unique<ReplicatedRelay>();
        QVERIFY(m_relay->start());
        CanvasClient &first = newClient();
        m_channel = QString::fromStdString(m_relay->createChannel(first.identity));
        QVERIFY(!m_channel.isEmpty());
        m_relay->catchUp(); // the replica knows the channel and holds a fresh heartbeat
    }

    void cleanup()
    {
        m_clients.clear(); // clients (and their sockets) go before the relay
        m_relay.reset();
    }

    void saveNotYetOnTheReplicaIsVerifiedOnTheWriter()
    {
        CanvasClient &alice = owner();
        const CanvasRevision v1 = saveOk(alice, std::nullopt, QStringLiteral("# v1\n"));
        QVERIFY(v1.isValid());
        m_relay->catchUp();
        m_relay->pause();

        bool fromReplica = false;
        const auto base = displayHeadFromReplica(alice, &fromReplica);
        QVERIFY(fromReplica);
        QVERIFY(base && base->eventId == v1.eventId);

        alice.log().clear();
        const SaveOutcome saved =
            await(alice.service->save(m_channel, base, QStringLiteral("# v2\n")));
        COMPARE_KIND(saved, Kind::SavedVerified);
        QCOMPARE(saved.saved->expectedRevision, std::optional<QString>(v1.eventId));
        verifyWriteGatingReadsOnWriter(
            alice, {QStringLiteral("canvas_precondition"), QStringLiteral("canvas_ancestry")});

        // Observably stale: the replica still serves v1 as the head; the writer has v2.
        const auto stale = displayHeadFromReplica(alice, &fromReplica);
        QVERIFY(fromReplica);
        QVERIFY(stale && stale->eventId == v1.eventId);
        QCOMPARE(strongHead(alice).eventId, saved.saved->eventId);
        QVERIFY(lastEntry(alice, QStringLiteral("canvas_head_strong"))
                    ->route.startsWith(QLatin1String("writer")));

        // A second save built on our own (replica-invisible) write: the precondition must see v2.
        const SaveOutcome again =
            await(alice.service->save(m_channel, saved.saved, QStringLiteral("# v3\n")));
        COMPARE_KIND(again, Kind::SavedVerified);
        QCOMPARE(again.saved->expectedRevision, std::optional<QString>(saved.saved->eventId));
    }

    void twoSavesFromTheSameStaleBaseOneWinsOneConflicts()
    {
        CanvasClient &alice = owner();
        CanvasClient &bob = newClient();
        const CanvasRevision v1 = saveOk(alice, std::nullopt, QStringLiteral("base\n"));
        QVERIFY(v1.isValid());
        m_relay->catchUp();
        m_relay->pause();

        bool fromReplica = false;
        const auto aliceBase = displayHeadFromReplica(alice, &fromReplica);
        QVERIFY(fromReplica && aliceBase);
        const auto bobBase = displayHeadFromReplica(bob, &fromReplica);
        QVERIFY(fromReplica && bobBase);

        // Both in flight at once; Bob's publish is held until Alice's save has finished.
        proxy().injectFault(RecordingProxy::Fault::Hold, RecordingProxy::eventsPost());
        auto bobTask = bob.service->save(m_channel, bobBase, QStringLiteral("base\nbob\n"));
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 5000);
        const SaveOutcome aliceOutcome =
            await(alice.service->save(m_channel, aliceBase, QStringLiteral("base\nalice\n")));
        proxy().release();
        const SaveOutcome bobOutcome = await(std::move(bobTask));

        COMPARE_KIND(aliceOutcome, Kind::SavedVerified);
        COMPARE_KIND(bobOutcome, Kind::Conflict);
        QCOMPARE(bobOutcome.base->eventId, v1.eventId);
        QCOMPARE(bobOutcome.mine, QStringLiteral("base\nbob\n"));
        // theirs is the writer's head, not the replica's stale v1.
        QVERIFY(bobOutcome.theirs);
        QCOMPARE(bobOutcome.theirs->eventId, aliceOutcome.saved->eventId);
        QCOMPARE(bobOutcome.theirs->content, QStringLiteral("base\nalice\n"));
        const auto stale = displayHeadFromReplica(bob, &fromReplica);
        QVERIFY(fromReplica);
        QVERIFY(stale && stale->eventId == v1.eventId);

        // A later save from the same stale display head is refused before signing, with the
        // writer's head as theirs.
        const std::size_t postsBefore = proxy().forwarded("/events").size();
        const SaveOutcome retry =
            await(bob.service->save(m_channel, *stale, QStringLiteral("base\nbob again\n")));
        COMPARE_KIND(retry, Kind::Conflict);
        QCOMPARE(retry.base->eventId, v1.eventId);
        QCOMPARE(retry.theirs->eventId, aliceOutcome.saved->eventId);
        QCOMPARE(proxy().forwarded("/events").size(), postsBefore);
        verifyWriteGatingReadsOnWriter(bob,
                                       {QStringLiteral("canvas_precondition"),
                                        QStringLiteral("canvas_ancestry")}); // the 409's theirs
    }

    void writeBuiltOnOursWithAPausedReplicaCountsAsSurvived()
    {
        CanvasClient &alice = owner();
        CanvasClient &bob = newClient();
        CanvasClient &carol = newClient();
        m_relay->pause(); // the replica never sees A, B or C
        // Alice's verification read waits until B (on A) and C (on B) have landed.
        proxy().injectFault(RecordingProxy::Fault::Hold,
                            RecordingProxy::queryContaining("\"limit\":256"));
        auto aliceTask = alice.service->save(m_channel, std::nullopt, QStringLiteral("A\n"));
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 5000);
        bool fromReplica = false;
        const auto stale = displayHeadFromReplica(bob, &fromReplica);
        QVERIFY(fromReplica);
        QVERIFY(!stale); // the replica has no canvas at all
        const CanvasRevision a = strongHead(bob);
        QCOMPARE(a.content, QStringLiteral("A\n"));
        const CanvasRevision b = saveOk(bob, a, QStringLiteral("B\n"));
        QVERIFY(b.isValid());
        QVERIFY(saveOk(carol, b, QStringLiteral("C\n")).isValid());
        proxy().release();
        const SaveOutcome outcome = await(std::move(aliceTask));
        COMPARE_KIND(outcome, Kind::SavedVerified);
        QCOMPARE(outcome.saved->eventId, a.eventId);
        verifyWriteGatingReadsOnWriter(
            alice, {QStringLiteral("canvas_precondition"), QStringLiteral("canvas_ancestry")});
    }

    void restoreWithAPausedReplicaUsesTheWritersHead()
    {
        CanvasClient &alice = owner();
        const CanvasRevision v1 = saveOk(alice, std::nullopt, QStringLiteral("one\n"));
        QVERIFY(v1.isValid());
        m_relay->catchUp();
        m_relay->pause();
        const CanvasRevision v2 = saveOk(alice, v1, QStringLiteral("two\n"));
        QVERIFY(v2.isValid());
        bool fromReplica = false;
        auto stale = displayHeadFromReplica(alice, &fromReplica);
        QVERIFY(fromReplica);
        QVERIFY(stale && stale->eventId == v1.eventId); // the replica still says v1 is current

        // v1 is the replica's head but not the writer's: a real restore, CAS on the frozen v2.
        alice.log().clear();
        const std::size_t postsBefore = proxy().forwarded("/events").size();
        const SaveOutcome restored =
            await(alice.service->restore(m_channel, v1.eventId, v2.eventId));
        COMPARE_KIND(restored, Kind::SavedVerified);
        QCOMPARE(restored.saved->content, QStringLiteral("one\n"));
        QCOMPARE(restored.saved->expectedRevision, std::optional<QString>(v2.eventId));
        QCOMPARE(proxy().forwarded("/events").size(), postsBefore + 1);
        verifyWriteGatingReadsOnWriter(
            alice, {QStringLiteral("canvas_restore_target"), QStringLiteral("canvas_ancestry")});

        // v2 is current nowhere but the writer knows the restore is head: restoring it again
        // (freshly frozen) is AlreadyCurrent with no write; restoring v2 (the replica never saw
        // it) against the stale frozen v2 is a Conflict against the writer's head.
        const SaveOutcome current = await(
            alice.service->restore(m_channel, restored.saved->eventId, restored.saved->eventId));
        COMPARE_KIND(current, Kind::AlreadyCurrent);
        QCOMPARE(current.saved->eventId, restored.saved->eventId);
        QCOMPARE(proxy().forwarded("/events").size(), postsBefore + 1);

        const SaveOutcome moved = await(alice.service->restore(m_channel, v2.eventId, v2.eventId));
        COMPARE_KIND(moved, Kind::Conflict);
        QCOMPARE(moved.theirs->eventId, restored.saved->eventId);
        QCOMPARE(moved.mine, QStringLiteral("two\n"));
        QCOMPARE(proxy().forwarded("/events").size(), postsBefore + 1);

        stale = displayHeadFromReplica(alice, &fromReplica);
        QVERIFY(fromReplica);
        QVERIFY(stale && stale->eventId == v1.eventId);
    }

    void laggingReplicaServesOldHeadsButConflictsUseTheWriter()
    {
        CanvasClient &alice = owner();
        CanvasClient &bob = newClient();
        const CanvasRevision v1 = saveOk(alice, std::nullopt, QStringLiteral("one\n"));
        QVERIFY(v1.isValid());
        m_relay->catchUp();
        // 3 s behind the writer, inside the 5 s read budget: the replica stays routable.
        m_relay->replicas().replica(0).setLagMs(3000);
        const CanvasRevision v2 = saveOk(alice, v1, QStringLiteral("two\n"));
        QVERIFY(v2.isValid());
        m_relay->clock->advanceMs(1000);
        m_relay->catchUp(); // v2 is only 1 s old: not replayed yet
        bool fromReplica = false;
        const auto stale = displayHeadFromReplica(bob, &fromReplica);
        QVERIFY(fromReplica);
        QVERIFY(stale && stale->eventId == v1.eventId);

        const SaveOutcome outcome =
            await(bob.service->save(m_channel, stale, QStringLiteral("one\nbob\n")));
        COMPARE_KIND(outcome, Kind::Conflict);
        QCOMPARE(outcome.base->eventId, v1.eventId);
        QCOMPARE(outcome.theirs->eventId, v2.eventId);
        QCOMPARE(outcome.theirs->content, QStringLiteral("two\n"));
        verifyWriteGatingReadsOnWriter(bob, {QStringLiteral("canvas_precondition")});

        // Once the lag has passed the replica serves v2, and Bob's merge on it saves.
        m_relay->clock->advanceMs(3000);
        m_relay->catchUp();
        const auto caughtUp = displayHeadFromReplica(bob, &fromReplica);
        QVERIFY(fromReplica);
        QVERIFY(caughtUp && caughtUp->eventId == v2.eventId);
        const SaveOutcome merged =
            await(bob.service->save(m_channel, caughtUp, QStringLiteral("two\nbob\n")));
        COMPARE_KIND(merged, Kind::SavedVerified);
    }

#ifdef BUZZ_CANVAS_CLI
    void cliRacingWritesExitWithConflict_data()
    {
        QTest::addColumn<bool>("restore");
        QTest::newRow("canvas set") << false;
        QTest::newRow("canvas restore") << true;
    }

    // buzz-canvas-cli as a script sees it: its write is held after its precondition passed, a
    // concurrent save lands, and the relay's CAS refuses the CLI's write → exit 5 naming the head.
    void cliRacingWritesExitWithConflict()
    {
        QFETCH(bool, restore);
        QVERIFY2(QFile::exists(kCli), qPrintable(kCli));
        CanvasClient &alice = owner();
        const CanvasRevision v1 = saveOk(alice, std::nullopt, QStringLiteral("one\n"));
        const CanvasRevision v2 = saveOk(alice, v1, QStringLiteral("two\n"));
        QVERIFY(v2.isValid());
        m_relay->catchUp();
        m_relay->pause();

        QTemporaryDir home;
        QProcess cli;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("BUZZ_RELAY_URL"));
        env.remove(QStringLiteral("BUZZ_CHANNEL"));
        env.remove(QStringLiteral("BUZZ_USE_KEYCHAIN"));
        env.remove(QStringLiteral("BUZZ_DATA_DIR"));
        relay::test::TestIdentity scripter;
        env.insert(QStringLiteral("BUZZ_PRIVATE_KEY"),
                   QString::fromStdString(scripter.key.toHex()));
        env.insert(QStringLiteral("BUZZ_CLI_DIR"), home.path());
        cli.setProcessEnvironment(env);
        QStringList arguments {QStringLiteral("canvas")};
        if (restore)
            arguments << QStringLiteral("restore") << QStringLiteral("--revision") << v1.eventId;
        else
            arguments << QStringLiteral("set") << QStringLiteral("--content")
                      << QStringLiteral("cli\n");
        arguments << QStringLiteral("--channel") << m_channel << QStringLiteral("--relay")
                  << m_relay->proxy.url().toString();
        proxy().injectFault(RecordingProxy::Fault::Hold, RecordingProxy::eventsPost());
        cli.start(kCli, arguments);
        QVERIFY(cli.waitForStarted(10000));
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding() || cli.state() == QProcess::NotRunning, 15000);
        QVERIFY2(proxy().isHolding(), cli.readAllStandardError().constData());
        const CanvasRevision theirs = saveOk(alice, v2, QStringLiteral("alice\n"));
        QVERIFY(theirs.isValid());
        proxy().release();
        QTRY_VERIFY_WITH_TIMEOUT(cli.state() == QProcess::NotRunning, 15000);
        const QByteArray err = cli.readAllStandardError();
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QVERIFY2(cli.exitCode() == 5, err.constData());
        const QJsonObject error =
            QJsonDocument::fromJson(err.trimmed().split('\n').last()).object();
        QCOMPARE(error.value(QLatin1String("error")).toString(), QStringLiteral("conflict"));
        QVERIFY2(error.value(QLatin1String("message")).toString().contains(theirs.eventId),
                 err.constData());
        QVERIFY(cli.readAllStandardOutput().isEmpty()); // no success JSON for a refused write
        QCOMPARE(strongHead(alice).eventId, theirs.eventId);
    }
#endif

    void historyPagingAfterResumeReturnsEveryRevisionOnce()
    {
        CanvasClient &alice = owner();
        m_relay->pause();
        std::optional<CanvasRevision> head;
        QStringList saved;
        for (int i = 0; i < 7; ++i) {
            head = saveOk(alice, head, QStringLiteral("rev %1\n").arg(i));
            QVERIFY(head->isValid());
            saved.prepend(head->eventId);
        }
        // Paused: the replica's history is empty; the display read proves it served.
        auto stalePage = await(alice.service->history(m_channel, std::nullopt, 3));
        QVERIFY(stalePage);
        QVERIFY(lastEntry(alice, QStringLiteral("history_page"))
                    ->route.startsWith(QLatin1String("replica")));
        QVERIFY(stalePage->revisions.empty());

        m_relay->resume();
        m_relay->catchUp();
        // Right after the catch-up every revision is newer than the proved fence wall: the first
        // page is served by the replica (bounded), keyset continuations by the writer
        // (beyond_wall). Mixed routes must still give every revision exactly once.
        QStringList routes;
        QCOMPARE(pageThroughHistory(alice, &routes), saved);
        QVERIFY2(routes.size() == 3 && routes.front().startsWith(QLatin1String("replica")),
                 qPrintable(routes.join(QLatin1Char('|'))));
        // Later, with the fence wall (heartbeat sample - 965 s) past every revision, every page
        // comes from the replica (covered).
        m_relay->clock->advanceMs(1'000'000);
        m_relay->catchUp();
        QCOMPARE(pageThroughHistory(alice, &routes), saved);
        QCOMPARE(routes.size(), 3);
        for (const QString &route : routes)
            QVERIFY2(route.startsWith(QLatin1String("replica")), qPrintable(route));
    }
};

QTEST_GUILESS_MAIN(TestCanvasReplica)
#include "test_canvas_replica.moc"
