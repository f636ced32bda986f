// CanvasService against the real in-process relay, seen through a recording proxy: consistency of
// every read, compare-and-swap outcomes, ancestry verification, lost responses and restore.

#include "CanvasTestSupport.h"

#include <QSet>
#include <QSignalSpy>
#include <QTest>

using namespace buzz;
using buzz::canvas::CanvasRevision;
using buzz::canvas::SaveOutcome;
using buzz::test::await;
using buzz::test::CanvasClient;
using buzz::test::RecordingProxy;
using Kind = buzz::canvas::SaveOutcome::Kind;

namespace {

const QSet<QString> kStrongCallers {
    QStringLiteral("canvas_precondition"), QStringLiteral("canvas_ancestry"),
    QStringLiteral("canvas_existence"), QStringLiteral("canvas_restore_target"),
    QStringLiteral("canvas_head_strong")};
const QSet<QString> kDisplayCallers {QStringLiteral("canvas_head_display"),
                                     QStringLiteral("history_page"),
                                     QStringLiteral("canvas_revision")};

bool isStrongOnWire(const QByteArray &body)
{
    return body.contains("\"consistency\":\"strong\"");
}

} // namespace

class TestCanvasService : public QObject
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

    std::vector<CanvasRevision> allRevisions(CanvasClient &client)
    {
        auto page = await(client.service->history(m_channel, std::nullopt, 1000));
        return page ? page->revisions : std::vector<CanvasRevision> {};
    }
    CanvasRevision strongHead(CanvasClient &client)
    {
        auto head = await(client.service->head(m_channel, canvas::ReadIntent::Strong));
        return head && *head ? **head : CanvasRevision {};
    }
    CanvasRevision saveOk(CanvasClient &client, std::optional<CanvasRevision> base,
                          const QString &text)
    {
        const SaveOutcome outcome = await(client.service->save(m_channel, base, text));
        if (outcome.kind != Kind::SavedVerified || !outcome.saved)
            qWarning() << "save failed:" << outcome.kindName()
                       << (outcome.error ? outcome.error->detail : QString());
        return outcome.saved.value_or(CanvasRevision {});
    }
    std::size_t eventsPosted() const { return m_relay->proxy.forwarded("/events").size(); }
    // Qt re-sends a request itself when the connection closes before an answer; the proxy drops
    // those copies too (same NIP-98 header), so only a new request from our code gets through.
    void dropRequestIncludingQtResends(const RecordingProxy::Predicate &predicate)
    {
        proxy().injectFault(RecordingProxy::Fault::DropRequest, predicate);
    }
    // Every /events body the relay received is the same signed event (no second revision).
    void verifySingleEventPublished(const QString &eventId)
    {
        const auto posts = proxy().forwarded("/events");
        QVERIFY(!posts.empty());
        for (const auto &post : posts) {
            QCOMPARE(post.body, posts.front().body);
            QVERIFY(post.body.contains(eventId.toLatin1()));
        }
    }

private slots:
    void init()
    {
        m_relay = std::make_unique<test::ProxiedRelay>();
        QVERIFY(m_relay->start());
        CanvasClient &first = newClient();
        m_channel =
            QString::fromStdString(m_relay->relay->createChannel(first.identity, "canvas-test"));
        QVERIFY(!m_channel.isEmpty());
    }

    void cleanup()
    {
        m_clients.clear(); // clients (and their sockets) go before the relay
        m_relay.reset();
    }

    void writeGatingReadsAreStrongAndDisplayReadsAreNot()
    {
        CanvasClient &alice = owner();
        const SaveOutcome first =
            await(alice.service->save(m_channel, std::nullopt, QStringLiteral("# v1\n")));
        COMPARE_KIND(first, Kind::SavedVerified);
        QCOMPARE(first.saved->expectedRevision, std::optional<QString>(QStringLiteral("none")));

        auto head = await(alice.service->head(m_channel));
        QVERIFY(head && *head);
        QCOMPARE((*head)->content, QStringLiteral("# v1\n"));
        QVERIFY(await(alice.service->history(m_channel)));
        QVERIFY(await(alice.service->revision(m_channel, first.saved->eventId)));

        const SaveOutcome second =
            await(alice.service->save(m_channel, *head, QStringLiteral("# v2\n")));
        COMPARE_KIND(second, Kind::SavedVerified);
        QCOMPARE(second.saved->expectedRevision, std::optional<QString>(first.saved->eventId));
        const SaveOutcome restored =
            await(alice.service->restore(m_channel, first.saved->eventId, second.saved->eventId));
        COMPARE_KIND(restored, Kind::SavedVerified);
        QCOMPARE(strongHead(alice).content, QStringLiteral("# v1\n"));

        // Pair each logged /query with the body the relay actually received (same order).
        std::vector<client::RequestLogEntry> queries;
        for (const auto &entry : alice.log().entries()) {
            if (entry.method == QLatin1String("POST /query"))
                queries.push_back(entry);
        }
        const auto received = proxy().forwarded("/query");
        QCOMPARE(received.size(), queries.size());
        QSet<QString> seenStrong, seenDisplay;
        for (std::size_t i = 0; i < queries.size(); ++i) {
            const auto &entry = queries[i];
            const bool wireStrong = isStrongOnWire(received[i].body);
            QVERIFY2(wireStrong == entry.strong, qPrintable(entry.caller));
            if (kStrongCallers.contains(entry.caller)) {
                QVERIFY2(wireStrong, qPrintable(entry.caller + QStringLiteral(" must be strong")));
                seenStrong.insert(entry.caller);
                if (!entry.route.isEmpty())
                    QVERIFY2(entry.route.startsWith(QLatin1String("writer")),
                             qPrintable(entry.route));
            } else {
                QVERIFY2(kDisplayCallers.contains(entry.caller), qPrintable(entry.caller));
                QVERIFY2(!wireStrong,
                         qPrintable(entry.caller + QStringLiteral(" must not be strong")));
                QVERIFY2(!received[i].body.contains("consistency"), received[i].body.constData());
                seenDisplay.insert(entry.caller);
            }
        }
        QCOMPARE(seenStrong,
                 (QSet<QString> {QStringLiteral("canvas_precondition"),
                                 QStringLiteral("canvas_ancestry"),
                                 QStringLiteral("canvas_restore_target"),
                                 QStringLiteral("canvas_head_strong")}));
        QCOMPARE(seenDisplay, kDisplayCallers);
        // Three writes, each CAS-tagged with the head it was based on.
        const auto posts = proxy().forwarded("/events");
        QCOMPARE(posts.size(), std::size_t(3));
        QVERIFY(posts[0].body.contains("[\"expected-revision\",\"none\"]"));
        QVERIFY(posts[1].body.contains(first.saved->eventId.toLatin1()));
        QVERIFY(posts[2].body.contains(second.saved->eventId.toLatin1()));
    }

    void staleBaseConflictsBeforeSigning()
    {
        CanvasClient &alice = owner();
        CanvasClient &bob = newClient();
        const CanvasRevision v1 = saveOk(alice, std::nullopt, QStringLiteral("shared\n"));
        QVERIFY(v1.isValid());
        const CanvasRevision bobBase = strongHead(bob);
        const CanvasRevision v2 = saveOk(alice, v1, QStringLiteral("shared\nalice\n"));
        QVERIFY(v2.isValid());
        const std::size_t postsBefore = eventsPosted();
        const SaveOutcome outcome =
            await(bob.service->save(m_channel, bobBase, QStringLiteral("shared\nbob\n")));
        COMPARE_KIND(outcome, Kind::Conflict);
        QCOMPARE(outcome.base->eventId, v1.eventId);
        QCOMPARE(outcome.mine, QStringLiteral("shared\nbob\n"));
        QCOMPARE(outcome.theirs->eventId, v2.eventId);
        QCOMPARE(outcome.theirs->content, QStringLiteral("shared\nalice\n"));
        QCOMPARE(eventsPosted(), postsBefore); // nothing signed or sent
    }

    void twoSavesFromTheSameBaseOneWinsOneConflicts()
    {
        CanvasClient &alice = owner();
        CanvasClient &bob = newClient();
        const CanvasRevision base = saveOk(alice, std::nullopt, QStringLiteral("base\n"));
        QVERIFY(base.isValid());
        // Bob passes his precondition, then his publish is held until Alice has saved.
        proxy().injectFault(RecordingProxy::Fault::Hold, RecordingProxy::eventsPost());
        auto bobTask = bob.service->save(m_channel, base, QStringLiteral("base\nbob\n"));
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 5000);
        const SaveOutcome aliceOutcome =
            await(alice.service->save(m_channel, base, QStringLiteral("base\nalice\n")));
        proxy().release();
        const SaveOutcome bobOutcome = await(std::move(bobTask));

        COMPARE_KIND(aliceOutcome, Kind::SavedVerified);
        COMPARE_KIND(bobOutcome, Kind::Conflict);
        QVERIFY(bobOutcome.error && bobOutcome.error->isConflict()); // the relay's CAS said no
        QVERIFY2(bobOutcome.error->message.contains(
                     QLatin1String("conflict: canvas changed since it was loaded")),
                 qPrintable(bobOutcome.error->message));
        QCOMPARE(bobOutcome.base->eventId, base.eventId);
        QCOMPARE(bobOutcome.mine, QStringLiteral("base\nbob\n"));
        QCOMPARE(bobOutcome.theirs->eventId, aliceOutcome.saved->eventId);
        QCOMPARE(allRevisions(alice).size(), std::size_t(2));
    }

    void writeBuiltOnOursCountsAsSurvived()
    {
        CanvasClient &alice = owner();
        CanvasClient &bob = newClient();
        CanvasClient &carol = newClient();
        // Alice's verification read waits until B (on A) and C (on B) have landed.
        proxy().injectFault(RecordingProxy::Fault::Hold,
                            RecordingProxy::queryContaining("\"limit\":256"));
        auto aliceTask = alice.service->save(m_channel, std::nullopt, QStringLiteral("A\n"));
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 5000);
        const CanvasRevision a = strongHead(bob);
        QCOMPARE(a.content, QStringLiteral("A\n"));
        const CanvasRevision b = saveOk(bob, a, QStringLiteral("B\n"));
        QVERIFY(b.isValid());
        QVERIFY(saveOk(carol, b, QStringLiteral("C\n")).isValid());
        proxy().release();
        const SaveOutcome outcome = await(std::move(aliceTask));
        COMPARE_KIND(outcome, Kind::SavedVerified);
        QCOMPARE(outcome.saved->eventId, a.eventId);
    }

    void untaggedWriteThatTookTheHeadSupersedesOurs()
    {
        CanvasClient &alice = owner();
        CanvasClient &legacy = newClient();
        proxy().injectFault(RecordingProxy::Fault::Hold,
                            RecordingProxy::queryContaining("\"limit\":256"));
        auto aliceTask = alice.service->save(m_channel, std::nullopt, QStringLiteral("ours\n"));
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 5000);
        canvas::SaveOptions unconditional;
        unconditional.unconditional = true;
        const SaveOutcome legacyOutcome = await(legacy.service->save(
            m_channel, std::nullopt, QStringLiteral("legacy\n"), unconditional));
        COMPARE_KIND(legacyOutcome, Kind::SavedVerified);
        QVERIFY(!legacyOutcome.saved->expectedRevision); // untagged on the wire
        proxy().release();
        const SaveOutcome outcome = await(std::move(aliceTask));
        COMPARE_KIND(outcome, Kind::Superseded);
        QCOMPARE(outcome.head->eventId, legacyOutcome.saved->eventId);
        QVERIFY(outcome.saved && outcome.saved->content == QStringLiteral("ours\n"));
        QCOMPARE(allRevisions(alice).size(), std::size_t(2)); // ours preserved in history
    }

    void lostResponseIsReconciledToSaved()
    {
        CanvasClient &alice = owner();
        proxy().injectFault(RecordingProxy::Fault::DropResponse, RecordingProxy::eventsPost());
        const SaveOutcome outcome =
            await(alice.service->save(m_channel, std::nullopt, QStringLiteral("landed\n")));
        COMPARE_KIND(outcome, Kind::SavedVerified);
        verifySingleEventPublished(
            outcome.saved->eventId); // Qt's own re-send carries the same bytes
        QCOMPARE(allRevisions(alice).size(), std::size_t(1));
        bool existenceChecked = false;
        for (const auto &entry : alice.log().entries())
            existenceChecked = existenceChecked
                || (entry.caller == QLatin1String("canvas_existence") && entry.strong);
        QVERIFY(existenceChecked);
    }

    void requestLostBeforeTheRelayIsResentWithTheSameEvent()
    {
        CanvasClient &alice = owner();
        dropRequestIncludingQtResends(RecordingProxy::eventsPost());
        const SaveOutcome outcome =
            await(alice.service->save(m_channel, std::nullopt, QStringLiteral("retry\n")));
        COMPARE_KIND(outcome, Kind::SavedVerified);
        QCOMPARE(eventsPosted(), std::size_t(1)); // only our re-send reached the relay
        verifySingleEventPublished(outcome.saved->eventId);
        QCOMPARE(allRevisions(alice).size(), std::size_t(1));
    }

    void unknownOutcomeThenResubmitNeverDoublePublishes()
    {
        CanvasClient &alice = owner();
        // The write lands but the answer is lost, and so is the existence check.
        proxy().injectFault(RecordingProxy::Fault::DropResponse, RecordingProxy::eventsPost());
        dropRequestIncludingQtResends(RecordingProxy::queryContaining("\"ids\""));
        const SaveOutcome unknown =
            await(alice.service->save(m_channel, std::nullopt, QStringLiteral("maybe\n")));
        COMPARE_KIND(unknown, Kind::OutcomeUnknown);
        QVERIFY(unknown.pending);
        QCOMPARE(unknown.mine, QStringLiteral("maybe\n"));
        const SaveOutcome settled = await(alice.service->resubmit(unknown));
        COMPARE_KIND(settled, Kind::SavedVerified);
        QCOMPARE(settled.saved->eventId, QString::fromStdString(unknown.pending->id));
        verifySingleEventPublished(settled.saved->eventId);
        QCOMPARE(allRevisions(alice).size(), std::size_t(1));
    }

    void unknownOutcomeOfAWriteThatNeverLandedIsResentOnce()
    {
        CanvasClient &alice = owner();
        dropRequestIncludingQtResends(RecordingProxy::eventsPost());
        dropRequestIncludingQtResends(RecordingProxy::queryContaining("\"ids\""));
        const SaveOutcome unknown =
            await(alice.service->save(m_channel, std::nullopt, QStringLiteral("never\n")));
        COMPARE_KIND(unknown, Kind::OutcomeUnknown);
        QCOMPARE(eventsPosted(), std::size_t(0));
        const SaveOutcome settled = await(alice.service->resubmit(unknown));
        COMPARE_KIND(settled, Kind::SavedVerified);
        QCOMPARE(eventsPosted(), std::size_t(1));
        QCOMPARE(proxy().forwarded("/events")[0].body,
                 QByteArray::fromStdString(unknown.pending->toJson()));
        QCOMPARE(allRevisions(alice).size(), std::size_t(1));
    }

    void savingTheCurrentTextWritesNothing()
    {
        CanvasClient &alice = owner();
        const CanvasRevision v1 = saveOk(alice, std::nullopt, QStringLiteral("unchanged\n"));
        const std::size_t before = eventsPosted();
        const SaveOutcome outcome =
            await(alice.service->save(m_channel, v1, QStringLiteral("unchanged\n")));
        COMPARE_KIND(outcome, Kind::AlreadyCurrent);
        QCOMPARE(outcome.saved->eventId, v1.eventId);
        QCOMPARE(eventsPosted(), before);
        QCOMPARE(allRevisions(alice).size(), std::size_t(1));
    }

    void restoringARevisionWithTheCurrentTextWritesNothing()
    {
        CanvasClient &alice = owner();
        const CanvasRevision v1 = saveOk(alice, std::nullopt, QStringLiteral("same\n"));
        const CanvasRevision v2 = saveOk(alice, v1, QStringLiteral("other\n"));
        const CanvasRevision v3 = saveOk(alice, v2, QStringLiteral("same\n"));
        const std::size_t before = eventsPosted();
        const SaveOutcome outcome =
            await(alice.service->restore(m_channel, v1.eventId, v3.eventId));
        COMPARE_KIND(outcome, Kind::AlreadyCurrent);
        QCOMPARE(outcome.saved->eventId, v3.eventId);
        QCOMPARE(eventsPosted(), before);
        QCOMPARE(allRevisions(alice).size(), std::size_t(3));
    }

    void restoreOfTheCurrentHeadWritesNothing()
    {
        CanvasClient &alice = owner();
        const CanvasRevision v1 = saveOk(alice, std::nullopt, QStringLiteral("one\n"));
        const CanvasRevision v2 = saveOk(alice, v1, QStringLiteral("two\n"));
        const std::size_t before = eventsPosted();
        const SaveOutcome outcome =
            await(alice.service->restore(m_channel, v2.eventId.toUpper(), v2.eventId));
        COMPARE_KIND(outcome, Kind::AlreadyCurrent);
        QCOMPARE(outcome.saved->eventId, v2.eventId);
        QCOMPARE(eventsPosted(), before);
    }

    void restorePublishesAByteCopyAheadOfTheFrozenHead()
    {
        CanvasClient &alice = owner();
        const QString original = QStringLiteral("keep\r\nexact bytes  \n\ttabs");
        const CanvasRevision v1 = saveOk(alice, std::nullopt, original);
        const CanvasRevision v2 = saveOk(alice, v1, QStringLiteral("changed\n"));
        const SaveOutcome outcome =
            await(alice.service->restore(m_channel, v1.eventId, v2.eventId));
        COMPARE_KIND(outcome, Kind::SavedVerified);
        QCOMPARE(outcome.saved->content, original);
        QCOMPARE(outcome.saved->expectedRevision, std::optional<QString>(v2.eventId));
        QVERIFY(outcome.saved->createdAt > v2.createdAt);
        QCOMPARE(strongHead(alice).eventId, outcome.saved->eventId);
        QCOMPARE(allRevisions(alice).size(), std::size_t(3)); // history is preserved
    }

    void restoreAgainstAMovedHeadConflicts()
    {
        CanvasClient &alice = owner();
        CanvasClient &bob = newClient();
        const CanvasRevision v1 = saveOk(alice, std::nullopt, QStringLiteral("one\n"));
        const CanvasRevision v2 = saveOk(alice, v1, QStringLiteral("two\n"));
        // The dialog froze v2; Bob's edit lands between the precondition and the publish: relay
        // 409.
        proxy().injectFault(RecordingProxy::Fault::Hold, RecordingProxy::eventsPost());
        auto restoreTask = alice.service->restore(m_channel, v1.eventId, v2.eventId);
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 5000);
        const CanvasRevision b = saveOk(bob, v2, QStringLiteral("bob\n"));
        proxy().release();
        const SaveOutcome outcome = await(std::move(restoreTask));
        COMPARE_KIND(outcome, Kind::Conflict);
        QCOMPARE(outcome.theirs->eventId, b.eventId);
        QCOMPARE(outcome.mine, QStringLiteral("one\n"));
    }

    void restoreWhoseRetryHits409IsReconciled_data()
    {
        QTest::addColumn<bool>("builtOnOurs");
        QTest::newRow("later write built on the restore") << true;
        QTest::newRow("untagged write took the head") << false;
    }

    void restoreWhoseRetryHits409IsReconciled()
    {
        QFETCH(bool, builtOnOurs);
        CanvasClient &alice = owner();
        CanvasClient &bob = newClient();
        const CanvasRevision v1 = saveOk(alice, std::nullopt, QStringLiteral("one\n"));
        const CanvasRevision v2 = saveOk(alice, v1, QStringLiteral("two\n"));
        // The restore commits but its answer is lost; the existence check is held and then answered
        // with a stale "[]", so the service re-sends the same event, which now gets the relay's
        // 409.
        const std::size_t postsBefore = eventsPosted();
        RecordingProxy *recorder = &proxy();
        proxy().injectFault(RecordingProxy::Fault::DropResponse, RecordingProxy::eventsPost());
        proxy().injectFault(RecordingProxy::Fault::Hold,
                            [recorder, postsBefore](const RecordingProxy::Request &r) {
                                return r.path == "/query" && r.body.contains("\"ids\"")
                                    && recorder->forwarded("/events").size() > postsBefore;
                            });
        auto restoreTask = alice.service->restore(m_channel, v1.eventId, v2.eventId);
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 5000);
        const CanvasRevision restored = strongHead(bob);
        QCOMPARE(restored.content, QStringLiteral("one\n"));
        canvas::SaveOptions options;
        options.unconditional = !builtOnOurs;
        const SaveOutcome bobOutcome =
            await(bob.service->save(m_channel, restored, QStringLiteral("bob\n"), options));
        QVERIFY(bobOutcome.isSaved());
        proxy().release(/*fakeEmptyArray=*/true);
        const SaveOutcome outcome = await(std::move(restoreTask));
        COMPARE_KIND(outcome, builtOnOurs ? Kind::SavedVerified : Kind::Superseded);
        QCOMPARE(outcome.saved->eventId, restored.eventId);
        QCOMPARE(allRevisions(alice).size(), std::size_t(4)); // v1, v2, restore, bob: no duplicate
    }

    void historyPagesWithKeysetCursor()
    {
        CanvasClient &alice = owner();
        std::optional<CanvasRevision> head;
        QStringList saved;
        for (int i = 0; i < 5; ++i) {
            head = saveOk(alice, head, QStringLiteral("rev %1\n").arg(i));
            QVERIFY(head->isValid());
            saved.prepend(head->eventId);
        }
        QStringList seen;
        std::optional<canvas::HistoryCursor> cursor;
        QList<int> sizes;
        for (int page = 0; page < 4; ++page) {
            auto result = await(alice.service->history(m_channel, cursor, 2));
            QVERIFY(result);
            sizes << static_cast<int>(result->revisions.size());
            for (const auto &revision : result->revisions)
                seen << revision.eventId;
            if (!result->nextCursor)
                break;
            cursor = result->nextCursor;
        }
        QCOMPARE(sizes, (QList<int> {2, 2, 1}));
        QCOMPARE(seen, saved); // newest first, no gaps, no repeats
        QVERIFY(!await(alice.service->history(m_channel, std::nullopt, 0)));
        QVERIFY(!await(alice.service->history(m_channel, std::nullopt, 1001)));
    }

    void headFarInTheFutureIsNotExtended()
    {
        CanvasClient &alice = owner();
        const qint64 now = m_relay->relay->now();
        const auto poisoned = alice.identity.sign(
            40100, now + 200, {{"h", m_channel.toStdString()}, {"expected-revision", "none"}},
            "from the future");
        const auto ingested = m_relay->relay->engine().ingest(
            poisoned,
            relay::RequestContext {"local", alice.identity.pubkey(), relay::Transport::Http});
        QVERIFY2(ingested.accepted(), ingested.message.c_str());
        const CanvasRevision head = strongHead(alice);
        const std::size_t before = eventsPosted();
        const SaveOutcome outcome =
            await(alice.service->save(m_channel, head, QStringLiteral("now\n")));
        COMPARE_KIND(outcome, Kind::Error);
        QCOMPARE(outcome.error->message,
                 QStringLiteral(
                     "canvas head is timestamped too far in the future; refusing to extend it"));
        QCOMPARE(eventsPosted(), before);
    }

    void writeIsStampedStrictlyAheadOfASlightlyFutureHead()
    {
        CanvasClient &alice = owner();
        const qint64 now = m_relay->relay->now();
        const auto ahead = alice.identity.sign(
            40100, now + 30, {{"h", m_channel.toStdString()}, {"expected-revision", "none"}}, "x");
        QVERIFY(m_relay->relay->engine()
                    .ingest(ahead,
                            relay::RequestContext {"local", alice.identity.pubkey(),
                                                   relay::Transport::Http})
                    .accepted());
        const SaveOutcome outcome =
            await(alice.service->save(m_channel, strongHead(alice), QStringLiteral("y\n")));
        COMPARE_KIND(outcome, Kind::SavedVerified);
        QCOMPARE(outcome.saved->createdAt, now + 31);
    }

    void watchReportsOtherClientsSaves()
    {
        CanvasClient &alice = owner();
        CanvasClient &bob = newClient();
        QSignalSpy changed(alice.watch.get(), &canvas::CanvasWatch::canvasChanged);
        alice.watch->watch(m_channel);
        QTRY_COMPARE_WITH_TIMEOUT(alice.connection->socket()->state(),
                                  client::RelaySocket::State::Connected, 5000);
        const CanvasRevision saved = saveOk(bob, std::nullopt, QStringLiteral("live\n"));
        QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), 5000);
        QCOMPARE(changed.first().at(0).toString(), m_channel);
        const auto revision = changed.first().at(1).value<CanvasRevision>();
        QCOMPARE(revision.eventId, saved.eventId);
        QCOMPARE(revision.author, QString::fromStdString(bob.identity.pubkey()));
        alice.watch->unwatch(m_channel);
    }

    // A writer whose clock runs five minutes slow signs revisions "before" the watcher started
    // (the relay accepts ±900 s): a subscription with since = now never delivered them live.
    void watchDeliversSavesFromAWriterWithASlowClock()
    {
        CanvasClient &alice = owner();
        CanvasClient &bob = newClient();
        bob.service->setClock([] { return QDateTime::currentSecsSinceEpoch() - 300; });
        QSignalSpy changed(alice.watch.get(), &canvas::CanvasWatch::canvasChanged);
        alice.watch->watch(m_channel);
        QTRY_COMPARE_WITH_TIMEOUT(alice.watch->watchState(m_channel),
                                  client::RelaySocket::SubscriptionState::Live, 5000);
        const CanvasRevision saved = saveOk(bob, std::nullopt, QStringLiteral("slow clock\n"));
        QVERIFY(saved.createdAt < QDateTime::currentSecsSinceEpoch() - 200);
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(changed.cbegin(), changed.cend(),
                                             [&](const QList<QVariant> &args) {
                                                 return args.at(1).value<CanvasRevision>().eventId
                                                     == saved.eventId;
                                             }),
                                 5000);
        alice.watch->unwatch(m_channel);
    }
};

QTEST_GUILESS_MAIN(TestCanvasService)
#include "test_canvas_service.moc"
