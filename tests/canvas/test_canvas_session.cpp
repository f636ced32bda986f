// CanvasSession against the real in-process relay behind a recording proxy: the rules an open
// canvas guarantees (rebase after a landed save, Retry sends what was sent, no duplicate
// revisions, strong draft bases, own revisions bounded), each driven without any widget.

#include "CanvasTestSupport.h"

#include "canvas/CanvasSession.h"
#include "canvas/DraftStore.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace buzz;
using buzz::canvas::CanvasRevision;
using buzz::canvas::CanvasSession;
using buzz::canvas::SaveOutcome;
using buzz::test::await;
using buzz::test::CanvasClient;
using buzz::test::RecordingProxy;
using Kind = buzz::canvas::SaveOutcome::Kind;
using State = buzz::canvas::CanvasSession::State;

Q_DECLARE_METATYPE(buzz::canvas::CanvasSession::State)

class TestCanvasSession : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::ProxiedRelay> m_relay;
    std::unique_ptr<CanvasClient> m_alice;
    std::unique_ptr<QTemporaryDir> m_draftDir;
    std::unique_ptr<canvas::DraftStore> m_store;
    QString m_channel;

    RecordingProxy &proxy() { return m_relay->proxy; }
    std::size_t eventsPosted() const { return m_relay->proxy.forwarded("/events").size(); }

    std::unique_ptr<CanvasSession> openSession()
    {
        auto session = std::make_unique<CanvasSession>(
            m_alice->service.get(), m_alice->watch.get(), m_channel,
            canvas::DraftScope {m_store.get(), QStringLiteral("relay"), QStringLiteral("host")});
        QSignalSpy loaded(session.get(), &CanvasSession::loadFinished);
        session->load();
        if (!loaded.wait(5000) || !loaded.front().front().toBool()) {
            qWarning() << "load failed:" << loaded.size()
                       << (session->loadError() ? session->loadError()->detail : QString());
            for (const auto &entry : m_alice->log().entries())
                qWarning() << client::RequestLog::formatLine(entry);
            return nullptr;
        }
        return session;
    }
    // Waits for the next settled save or restore and returns it.
    static CanvasSession::Settled settleOf(QSignalSpy &spy)
    {
        if (spy.isEmpty() && !spy.wait(10000))
            return {};
        return spy.takeFirst().front().value<CanvasSession::Settled>();
    }
    CanvasRevision seed(const QString &text)
    {
        auto head = await(m_alice->service->head(m_channel, canvas::ReadIntent::Strong));
        const SaveOutcome outcome =
            await(m_alice->service->save(m_channel, head ? *head : std::nullopt, text));
        return outcome.saved.value_or(CanvasRevision {});
    }
    std::vector<canvas::Draft> drafts() const
    {
        return m_store->draftsForChannel(QStringLiteral("relay"), QStringLiteral("host"),
                                         m_channel);
    }
    // The outcome of the next save is unknown: the write lands, its answer and the existence
    // check are lost.
    void loseTheNextWritesAnswer()
    {
        proxy().injectFault(RecordingProxy::Fault::DropResponse, RecordingProxy::eventsPost());
        // The existence check after the write, not a read by id before it (restore target).
        RecordingProxy *recorder = &proxy();
        const std::size_t posted = eventsPosted();
        proxy().injectFault(RecordingProxy::Fault::DropRequest,
                            [recorder, posted](const RecordingProxy::Request &request) {
                                return request.path == "/query" && request.body.contains("\"ids\"")
                                    && recorder->forwarded("/events").size() > posted;
                            });
    }

private slots:
    void initTestCase() { qRegisterMetaType<CanvasSession::State>(); }

    void init()
    {
        m_relay = std::make_unique<test::ProxiedRelay>();
        QVERIFY(m_relay->start());
        m_alice = std::make_unique<CanvasClient>(m_relay->proxy.url());
        m_channel = QString::fromStdString(m_relay->relay->createChannel(m_alice->identity, "s"));
        m_draftDir = std::make_unique<QTemporaryDir>();
        m_store = std::make_unique<canvas::DraftStore>(m_draftDir->path());
    }

    void cleanup()
    {
        m_alice.reset();
        m_relay.reset();
        m_store.reset();
        m_draftDir.reset();
    }

    void savedTextKeepsEditingOnTheLandedRevisionAndTheHeadIsStrong()
    {
        seed(QStringLiteral("one\n"));
        auto session = openSession();
        QVERIFY(session);
        QCOMPARE(session->headSource(), CanvasSession::HeadSource::Routed);
        QVERIFY(session->startEditing());
        QCOMPARE(session->state(), State::Editing);
        session->setWorkingText(QStringLiteral("one\ntwo\n"));
        QSignalSpy settled(session.get(), &CanvasSession::settled);
        session->save();
        QCOMPARE(session->state(), State::Saving);
        const auto result = settleOf(settled);
        COMPARE_KIND(result.outcome, Kind::SavedVerified);
        QVERIFY(!result.laterChangesUnsaved);
        // The editor stays open: the edit goes on from the revision that landed, nothing unsaved.
        QCOMPARE(session->state(), State::Editing);
        QVERIFY(!session->hasUnsavedChanges());
        QCOMPARE(session->editBase()->eventId, result.outcome.saved->eventId);
        QCOMPARE(session->head()->content, QStringLiteral("one\ntwo\n"));
        QCOMPARE(session->headSource(), CanvasSession::HeadSource::Strong);
        QVERIFY(session->isOwnRevision(session->head()->eventId));
        QVERIFY(drafts().empty()); // the edit is complete and verified
    }

    void textTypedDuringASaveStaysAsAnEditOnTheLandedRevision()
    {
        seed(QStringLiteral("base\n"));
        auto session = openSession();
        QVERIFY(session && session->startEditing());
        session->setWorkingText(QStringLiteral("base\nsent\n"));
        proxy().injectFault(RecordingProxy::Fault::Hold, RecordingProxy::eventsPost());
        QSignalSpy settled(session.get(), &CanvasSession::settled);
        session->save();
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 5000);
        session->setWorkingText(QStringLiteral("base\nsent\ntyped while saving\n"));
        proxy().release();
        const auto result = settleOf(settled);
        COMPARE_KIND(result.outcome, Kind::SavedVerified);
        QVERIFY(result.laterChangesUnsaved);
        QCOMPARE(session->state(), State::Editing);
        QCOMPARE(session->workingText(), QStringLiteral("base\nsent\ntyped while saving\n"));
        QCOMPARE(session->editBase()->eventId, result.outcome.saved->eventId);
        QCOMPARE(session->editBase()->content, QStringLiteral("base\nsent\n"));
        QVERIFY(session->hasUnsavedChanges());
        bool later = false;
        for (const auto &draft : drafts())
            later |= draft.content == QStringLiteral("base\nsent\ntyped while saving\n")
                && draft.key.baseRevision == result.outcome.saved->eventId;
        QVERIFY(later);

        // Saving again is a compare-and-swap on the landed revision, and completes the edit.
        session->save();
        const auto second = settleOf(settled);
        COMPARE_KIND(second.outcome, Kind::SavedVerified);
        QCOMPARE(second.outcome.saved->expectedRevision.value_or(QString()),
                 result.outcome.saved->eventId);
        QCOMPARE(session->state(), State::Editing);
        QVERIFY(!session->hasUnsavedChanges());
        QVERIFY(drafts().empty());
    }

    void saveWhileSavingSendsTheNewerTextOnceTheFirstLands()
    {
        seed(QStringLiteral("a\n"));
        auto session = openSession();
        QVERIFY(session && session->startEditing());
        session->setWorkingText(QStringLiteral("a\nb\n"));
        proxy().injectFault(RecordingProxy::Fault::Hold, RecordingProxy::eventsPost());
        QSignalSpy settled(session.get(), &CanvasSession::settled);
        session->save();
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 5000);
        session->setWorkingText(QStringLiteral("a\nb\nc\n"));
        session->save(); // Ctrl+S again while the first is under way
        proxy().release();
        const auto first = settleOf(settled);
        COMPARE_KIND(first.outcome, Kind::SavedVerified);
        const auto second = settleOf(settled);
        COMPARE_KIND(second.outcome, Kind::SavedVerified);
        QCOMPARE(second.outcome.saved->content, QStringLiteral("a\nb\nc\n"));
        QVERIFY(!session->hasUnsavedChanges());
        QCOMPARE(eventsPosted(), std::size_t(3)); // seed + two saves, nothing twice
    }

    void retrySendsWhatWasSentAndKeepsLaterText()
    {
        seed(QStringLiteral("start\n"));
        auto session = openSession();
        QVERIFY(session && session->startEditing());
        session->setWorkingText(QStringLiteral("start\nfirst\n"));
        loseTheNextWritesAnswer();
        QSignalSpy settled(session.get(), &CanvasSession::settled);
        session->save();
        const auto unknown = settleOf(settled);
        COMPARE_KIND(unknown.outcome, Kind::OutcomeUnknown);
        QCOMPARE(session->state(), State::OutcomeUnknown);
        QVERIFY(session->isEditing() && session->canRetry());
        session->setWorkingText(QStringLiteral("start\nfirst\nafter the failure\n"));
        session->retry();
        const auto landed = settleOf(settled);
        COMPARE_KIND(landed.outcome, Kind::SavedVerified);
        QCOMPARE(landed.outcome.saved->content, QStringLiteral("start\nfirst\n"));
        QVERIFY(landed.laterChangesUnsaved);
        QCOMPARE(session->state(), State::Editing);
        QCOMPARE(session->workingText(), QStringLiteral("start\nfirst\nafter the failure\n"));
        QCOMPARE(session->editBase()->eventId, landed.outcome.saved->eventId);
        bool kept = false;
        for (const auto &draft : drafts())
            kept |= draft.content.contains(QStringLiteral("after the failure"));
        QVERIFY(kept);
        // One signed event, sent twice at most: never a second revision of the same text.
        auto page = await(m_alice->service->history(m_channel));
        QCOMPARE(page->revisions.size(), std::size_t(2));
    }

    void unchangedTextAndCurrentTextAreAlreadyCurrent()
    {
        const CanvasRevision v1 = seed(QStringLiteral("same\n"));
        const CanvasRevision v2 = seed(QStringLiteral("other\n"));
        const CanvasRevision v3 = seed(QStringLiteral("same\n"));
        auto session = openSession();
        QVERIFY(session && session->startEditing());
        const std::size_t before = eventsPosted();
        QSignalSpy settled(session.get(), &CanvasSession::settled);
        session->save(); // nothing typed
        const auto unchanged = settleOf(settled);
        COMPARE_KIND(unchanged.outcome, Kind::AlreadyCurrent);
        QCOMPARE(session->state(), State::Editing); // the editor stays; nothing to protect in it
        // v1 has the current text, under another id: restoring it would only duplicate it.
        QVERIFY(session->restore(v1.eventId, v3.eventId));
        const auto restored = settleOf(settled);
        COMPARE_KIND(restored.outcome, Kind::AlreadyCurrent);
        QCOMPARE(eventsPosted(), before);
        QVERIFY(v2.isValid());
    }

    void restoreWithUnknownOutcomeIsRetriedNotRepeated()
    {
        const CanvasRevision v1 = seed(QStringLiteral("v1\n"));
        const CanvasRevision v2 = seed(QStringLiteral("v2\n"));
        const CanvasRevision v3 = seed(QStringLiteral("v3\n"));
        auto session = openSession();
        QVERIFY(session);
        loseTheNextWritesAnswer();
        QSignalSpy settled(session.get(), &CanvasSession::settled);
        QVERIFY(session->restore(v1.eventId, v3.eventId));
        QCOMPARE(session->state(), State::Restoring);
        const auto unknown = settleOf(settled);
        COMPARE_KIND(unknown.outcome, Kind::OutcomeUnknown);
        QCOMPARE(unknown.operation, CanvasSession::Operation::Restore);
        QCOMPARE(session->state(), State::OutcomeUnknown);
        QVERIFY(session->canRetry());
        QVERIFY(!session->startEditing()); // its fate first
        QVERIFY(!session->restore(v2.eventId, v3.eventId));
        session->retry();
        const auto landed = settleOf(settled);
        COMPARE_KIND(landed.outcome, Kind::SavedVerified);
        QCOMPARE(session->head()->content, QStringLiteral("v1\n"));
        // A second restore is frozen on our own restore: no conflict with ourselves.
        QVERIFY(session->restore(v2.eventId, session->head()->eventId));
        const auto again = settleOf(settled);
        COMPARE_KIND(again.outcome, Kind::SavedVerified);
        QCOMPARE(session->head()->content, QStringLiteral("v2\n"));
    }

    void draftOfAnOlderBaseIsEditedAgainstItsStrongBase()
    {
        const CanvasRevision v1 = seed(QStringLiteral("shared\n"));
        auto session = openSession();
        QVERIFY(session && session->startEditing());
        session->setWorkingText(QStringLiteral("shared\nmine\n"));
        session->leaveEditing(); // kept as a draft on v1
        const CanvasRevision v2 = seed(QStringLiteral("shared\ntheirs\n"));
        QSignalSpy loaded(session.get(), &CanvasSession::loadFinished);
        session->load();
        QVERIFY(loaded.wait(5000));
        QTRY_COMPARE(session->head()->eventId, v2.eventId);
        const auto draft = session->draftToOffer();
        QVERIFY(draft);
        QCOMPARE(draft->key.baseRevision, v1.eventId);
        QSignalSpy editing(session.get(), &CanvasSession::editingChanged);
        session->restoreDraft(*draft);
        QVERIFY(editing.wait(5000));
        QCOMPARE(session->editBase()->eventId, v1.eventId);
        QCOMPARE(session->editBase()->content, QStringLiteral("shared\n"));
        bool strong = false;
        for (const auto &entry : m_alice->log().entries()) {
            if (entry.caller == QLatin1String("canvas_draft_base"))
                strong = entry.strong;
        }
        QVERIFY(strong);
    }

    void draftWhoseBaseIsMissingIsNotEditedAsANewCanvas()
    {
        seed(QStringLiteral("now\n"));
        auto session = openSession();
        QVERIFY(session);
        canvas::DraftKey key = session->drafts()->keyFor(std::nullopt);
        key.baseRevision = QString(64, QLatin1Char('a')); // a revision the relay never had
        QVERIFY(m_store->store(key, QStringLiteral("orphan text\n")));
        const auto draft = session->draftToOffer();
        QVERIFY(draft);
        QSignalSpy failed(session.get(), &CanvasSession::draftFailed);
        session->restoreDraft(*draft);
        QVERIFY(failed.wait(5000));
        QVERIFY(!session->isEditing());
        QCOMPARE(failed.front().front().value<client::RelayError>().kind,
                 client::RelayError::Kind::NotFound);
        QVERIFY(m_store->load(key)); // still on disk
    }

    void liveEchoOfOwnSaveIsNotAChangeByOthers()
    {
        seed(QStringLiteral("x\n"));
        auto session = openSession();
        QVERIFY(session);
        QTRY_VERIFY_WITH_TIMEOUT(
            m_alice->connection->socket()->state() == client::RelaySocket::State::Connected, 5000);
        QVERIFY(session->startEditing());
        session->setWorkingText(QStringLiteral("x\ny\n"));
        QSignalSpy live(session.get(), &CanvasSession::liveChangeArrived);
        QSignalSpy settled(session.get(), &CanvasSession::settled);
        session->save();
        settleOf(settled);
        QVERIFY(session->startEditing());
        // Someone else's save arrives live while editing.
        CanvasClient bob(m_relay->proxy.url());
        const auto head = await(bob.service->head(m_channel, canvas::ReadIntent::Strong));
        QVERIFY(
            await(bob.service->save(m_channel, *head, QStringLiteral("x\ny\nbob\n"))).isSaved());
        QTRY_COMPARE_WITH_TIMEOUT(live.size(), 1, 5000); // it may arrive while Bob awaits his OK
        QCOMPARE(session->liveChange()->content, QStringLiteral("x\ny\nbob\n"));
        QCOMPARE(session->head()->content, QStringLiteral("x\ny\nbob\n"));
        QCOMPARE(session->editBase()->content, QStringLiteral("x\ny\n")); // the base stays
    }

    void closingTheSessionDropsAnswersAndKeepsTheDraft()
    {
        seed(QStringLiteral("base\n"));
        auto session = openSession();
        QVERIFY(session && session->startEditing());
        session->setWorkingText(QStringLiteral("base\nunsaved\n"));
        proxy().injectFault(RecordingProxy::Fault::Hold, RecordingProxy::eventsPost());
        session->save();
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 5000);
        session.reset(); // switching channel
        bool kept = false;
        for (const auto &draft : drafts())
            kept |= draft.content == QStringLiteral("base\nunsaved\n");
        QVERIFY(kept);
        proxy().release(); // the answer arrives for a session that no longer exists
        QTRY_COMPARE_WITH_TIMEOUT(
            await(m_alice->service->head(m_channel, canvas::ReadIntent::Strong)).value()->content,
            QStringLiteral("base\nunsaved\n"), 5000);
        // Reopened: the landed text is current, so its draft is not offered again.
        auto reopened = openSession();
        QVERIFY(reopened);
        QTRY_COMPARE(reopened->head()->content, QStringLiteral("base\nunsaved\n"));
        QVERIFY(!reopened->draftToOffer());
    }

    void ownRevisionsAreBounded()
    {
        canvas::RecentRevisions recent;
        for (int i = 0; i < 100; ++i) {
            CanvasRevision revision;
            revision.eventId = QStringLiteral("%1").arg(i, 64, 10, QLatin1Char('0'));
            revision.createdAt = 1'790'000'000 + i;
            recent.add(revision);
        }
        QCOMPARE(recent.size(), canvas::RecentRevisions::kCapacity);
        QCOMPARE(recent.newestFirst().front().createdAt, 1'790'000'099);
        QVERIFY(!recent.contains(QStringLiteral("%1").arg(0, 64, 10, QLatin1Char('0'))));
    }
};

QTEST_GUILESS_MAIN(TestCanvasSession)
#include "test_canvas_session.moc"
