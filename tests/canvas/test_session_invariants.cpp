// Every transition of CanvasSession's state (docs/architecture.md §The canvas session), driven
// over the in-process relay behind the recording proxy: the states announced in order, what each
// state lets the user do (isEditing, isBusy, canRetry, canRestore, mergeOffer, editBase), and at
// every state entered the invariants written under CanvasSession::State (SessionInvariants, in
// release builds too; debug builds also assert them inside the session at every transition).

#include "CanvasTestSupport.h"

#include "canvas/CanvasSession.h"
#include "canvas/DraftStore.h"
#include "canvas/SessionInvariants.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cctype>

using namespace buzz;
using buzz::canvas::CanvasRevision;
using buzz::canvas::CanvasSession;
using buzz::canvas::SaveOutcome;
using buzz::test::await;
using buzz::test::CanvasClient;
using buzz::test::RecordingProxy;
using Kind = buzz::canvas::SaveOutcome::Kind;
using State = buzz::canvas::CanvasSession::State;
using States = QList<State>;

Q_DECLARE_METATYPE(buzz::canvas::CanvasSession::State)

namespace {

// The states a session announces, and every invariant broken at any of them.
class StateLog
{
public:
    explicit StateLog(CanvasSession *session)
    {
        QObject::connect(
            session, &CanvasSession::stateChanged, session, [this, session](State state) {
                m_states << state;
                for (const QString &broken : canvas::SessionInvariants::broken(*session))
                    m_broken << QStringLiteral("%1: %2").arg(int(state)).arg(broken);
            });
    }
    // The states announced since the last call.
    States take() { return std::exchange(m_states, {}); }
    const QStringList &broken() const { return m_broken; }

private:
    States m_states;
    QStringList m_broken;
};

} // namespace

class TestSessionInvariants : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::ProxiedRelay> m_relay;
    std::unique_ptr<CanvasClient> m_alice;
    std::unique_ptr<CanvasClient> m_bob;
    std::unique_ptr<QTemporaryDir> m_draftDir;
    std::unique_ptr<canvas::DraftStore> m_store;
    std::unique_ptr<CanvasSession> m_session;
    std::unique_ptr<StateLog> m_log;
    std::unique_ptr<QSignalSpy> m_settled;
    QString m_channel;

    RecordingProxy &proxy() { return m_relay->proxy; }

    bool open()
    {
        m_session = std::make_unique<CanvasSession>(
            m_alice->service.get(), m_alice->watch.get(), m_channel,
            canvas::DraftScope {m_store.get(), QStringLiteral("relay"), QStringLiteral("host")});
        m_log = std::make_unique<StateLog>(m_session.get());
        m_settled = std::make_unique<QSignalSpy>(m_session.get(), &CanvasSession::settled);
        QSignalSpy loaded(m_session.get(), &CanvasSession::loadFinished);
        m_session->load();
        return loaded.wait(10000) && loaded.front().front().toBool();
    }
    // The next save or restore to settle.
    CanvasSession::Settled settled()
    {
        if (m_settled->isEmpty() && !m_settled->wait(10000))
            return {};
        return m_settled->takeFirst().front().value<CanvasSession::Settled>();
    }
    CanvasRevision write(CanvasClient &client, const QString &text)
    {
        auto head = await(client.service->head(m_channel, canvas::ReadIntent::Strong));
        const SaveOutcome outcome =
            await(client.service->save(m_channel, head ? *head : std::nullopt, text));
        return outcome.saved.value_or(CanvasRevision {});
    }
    // The next write lands, but its answer and the existence check after it are lost.
    void loseTheNextWritesAnswer()
    {
        proxy().injectFault(RecordingProxy::Fault::DropResponse, RecordingProxy::eventsPost());
        RecordingProxy *recorder = &proxy();
        const std::size_t posted = proxy().forwarded("/events").size();
        proxy().injectFault(RecordingProxy::Fault::DropRequest,
                            [recorder, posted](const RecordingProxy::Request &request) {
                                return request.path == "/query" && request.body.contains("\"ids\"")
                                    && recorder->forwarded("/events").size() > posted;
                            });
    }
    bool hasDraft(const QString &text) const
    {
        const auto drafts =
            m_store->draftsForChannel(QStringLiteral("relay"), QStringLiteral("host"), m_channel);
        return std::any_of(drafts.begin(), drafts.end(),
                           [&text](const canvas::Draft &draft) { return draft.content == text; });
    }
    // Loads the head again and waits for the answer.
    bool reload()
    {
        QSignalSpy loaded(m_session.get(), &CanvasSession::loadFinished);
        m_session->load();
        return loaded.wait(10000);
    }
    // A session editing `text` over `base`'s revision, with Bob's newer revision met by its save:
    // Merging.
    CanvasRevision mergingWithBob()
    {
        write(*m_alice, QStringLiteral("line\n"));
        if (!open() || !m_session->startEditing())
            return {};
        m_session->setWorkingText(QStringLiteral("line\nalice\n"));
        const CanvasRevision bobs = write(*m_bob, QStringLiteral("line\nbob\n"));
        m_session->save();
        const auto conflict = settled();
        return conflict.outcome.kind == Kind::Conflict ? bobs : CanvasRevision {};
    }

private slots:
    void initTestCase() { qRegisterMetaType<CanvasSession::State>(); }

    void init()
    {
        m_relay = std::make_unique<test::ProxiedRelay>();
        QVERIFY(m_relay->start());
        m_alice = std::make_unique<CanvasClient>(m_relay->proxy.url());
        m_bob = std::make_unique<CanvasClient>(m_relay->proxy.url());
        m_channel = QString::fromStdString(m_relay->relay->createChannel(m_alice->identity, "s"));
        m_draftDir = std::make_unique<QTemporaryDir>();
        m_store = std::make_unique<canvas::DraftStore>(m_draftDir->path());
    }

    void cleanup()
    {
        if (m_log)
            QCOMPARE(m_log->broken(), QStringList());
        m_settled.reset();
        m_log.reset();
        m_session.reset();
        m_bob.reset();
        m_alice.reset();
        m_relay.reset();
        m_store.reset();
        m_draftDir.reset();
    }

    void editSaveLeaveAndDiscard()
    {
        write(*m_alice, QStringLiteral("one\n"));
        QVERIFY(open());
        QCOMPARE(m_session->state(), State::Viewing);
        QVERIFY(!m_session->isEditing() && !m_session->editBase() && m_session->canRestore());

        QVERIFY(m_session->startEditing());
        QVERIFY(m_session->isEditing() && !m_session->isEditedSinceBase());
        QCOMPARE(m_session->editBase()->eventId, m_session->head()->eventId);
        QVERIFY(m_session->canRestore()); // nothing typed yet
        m_session->setWorkingText(QStringLiteral("one\ntwo\n"));
        QVERIFY(m_session->isEditedSinceBase() && !m_session->canRestore());
        proxy().injectFault(RecordingProxy::Fault::Hold, RecordingProxy::eventsPost());
        m_session->save();
        QVERIFY(m_session->isBusy() && m_session->isEditing() && !m_session->canRetry());
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 10000);
        proxy().release();
        QCOMPARE(settled().outcome.kind, Kind::SavedVerified);
        QCOMPARE(m_session->editBase()->content, QStringLiteral("one\ntwo\n"));
        QCOMPARE(m_log->take(), (States {State::Editing, State::Saving, State::Editing}));

        m_session->setWorkingText(QStringLiteral("one\ntwo\nthree\n"));
        m_session->leaveEditing(); // kept as a draft
        QVERIFY(!m_session->isEditing() && !m_session->editBase() && !m_session->liveChange());
        QVERIFY(m_session->startEditing()); // continues the draft on this very revision
        QCOMPARE(m_session->workingText(), QStringLiteral("one\ntwo\nthree\n"));
        QVERIFY(m_session->isEditedSinceBase());
        m_session->discardEdit();
        QVERIFY(!m_session->isEditing());
        QCOMPARE(m_log->take(), (States {State::Viewing, State::Editing, State::Viewing}));
    }

    void conflictMergesAndAFailedSaveReturnsToMerging()
    {
        const CanvasRevision bobs = mergingWithBob();
        QVERIFY(bobs.isValid());
        QCOMPARE(m_session->state(), State::Merging);
        auto offer = m_session->mergeOffer();
        QVERIFY(offer && offer->theirs);
        QCOMPARE(offer->theirs->eventId, bobs.eventId);
        QCOMPARE(offer->mine, QStringLiteral("line\nalice\n"));
        QCOMPARE(offer->baseText, QStringLiteral("line\n"));
        QVERIFY(!m_session->canRestore());

        // Saving from Merging keeps theirs: a save that cannot reach the relay goes back to it.
        proxy().injectFault(RecordingProxy::Fault::DropRequest,
                            [](const RecordingProxy::Request &request) {
                                const qsizetype at = request.body.indexOf("\"limit\":1");
                                return request.path == "/query" && at >= 0
                                    && !std::isdigit(request.body.at(at + 9));
                            });
        m_session->save();
        QCOMPARE(m_session->state(), State::Saving);
        QVERIFY(m_session->mergeOffer());
        QCOMPARE(settled().outcome.kind, Kind::Error);
        QCOMPARE(m_session->state(), State::Merging);
        QCOMPARE(m_session->mergeOffer()->theirs->eventId, bobs.eventId);
        QVERIFY(m_session->isWaitingForRelay() && m_session->canRetry());

        // The merge is accepted and saved against theirs.
        m_session->acceptMerge(offer->theirs, QStringLiteral("line\nbob\nalice\n"), true);
        QCOMPARE(m_session->state(), State::Saving);
        QCOMPARE(m_session->editBase()->eventId, bobs.eventId);
        const auto merged = settled();
        QCOMPARE(merged.outcome.kind, Kind::SavedVerified);
        QCOMPARE(merged.outcome.saved->expectedRevision.value_or(QString()), bobs.eventId);
        QVERIFY(!m_session->mergeOffer() && !m_session->isWaitingForRelay());
        QCOMPARE(m_log->take(),
                 (States {State::Editing, State::Saving, State::Merging, State::Saving,
                          State::Merging, State::Editing, State::Saving, State::Editing}));
    }

    void unknownSaveIsRetriedOrLeft()
    {
        write(*m_alice, QStringLiteral("start\n"));
        QVERIFY(open() && m_session->startEditing());
        m_session->setWorkingText(QStringLiteral("start\nfirst\n"));
        loseTheNextWritesAnswer();
        m_session->save();
        QCOMPARE(settled().outcome.kind, Kind::OutcomeUnknown);
        QCOMPARE(m_session->state(), State::OutcomeUnknown);
        QVERIFY(m_session->isEditing() && !m_session->isBusy() && m_session->canRetry());
        QVERIFY(!m_session->canRestore());
        // Save again waits for the unknown write: Retry sends that event first.
        m_session->setWorkingText(QStringLiteral("start\nfirst\nsecond\n"));
        m_session->save();
        QCOMPARE(m_session->state(), State::Saving);
        const auto first = settled();
        QCOMPARE(first.outcome.kind, Kind::SavedVerified);
        QCOMPARE(first.outcome.saved->content, QStringLiteral("start\nfirst\n"));
        QVERIFY(first.laterChangesUnsaved);
        const auto second = settled(); // then the newer text, by itself
        QCOMPARE(second.outcome.kind, Kind::SavedVerified);
        QCOMPARE(second.outcome.saved->content, QStringLiteral("start\nfirst\nsecond\n"));
        QCOMPARE(m_log->take(),
                 (States {State::Editing, State::Saving, State::OutcomeUnknown, State::Saving,
                          State::Editing, State::Saving, State::Editing}));

        // Leaving an unknown save keeps its text as a draft; the edit is over.
        m_session->setWorkingText(QStringLiteral("start\nfirst\nsecond\nthird\n"));
        loseTheNextWritesAnswer();
        m_session->save();
        QCOMPARE(settled().outcome.kind, Kind::OutcomeUnknown);
        m_session->leaveEditing();
        QVERIFY(!m_session->isEditing() && !m_session->canRetry()
                && !m_session->isWaitingForRelay());
        QCOMPARE(m_log->take(), (States {State::Saving, State::OutcomeUnknown, State::Viewing}));
        QVERIFY(hasDraft(QStringLiteral("start\nfirst\nsecond\nthird\n")));
    }

    void aSaveFromMergingMeetsTheNewestTheirsAndLeavingKeepsTheDraft()
    {
        const CanvasRevision bobs = mergingWithBob();
        QVERIFY(bobs.isValid());
        const CanvasRevision newer = write(*m_bob, QStringLiteral("line\nbob\nmore\n"));
        m_session->save(); // still against the base the edit started from
        QCOMPARE(settled().outcome.kind, Kind::Conflict);
        QCOMPARE(m_session->state(), State::Merging);
        const auto offer = m_session->mergeOffer();
        QVERIFY(offer && offer->theirs);
        QCOMPARE(offer->theirs->eventId, newer.eventId);
        QCOMPARE(offer->baseText, QStringLiteral("line\n"));
        QCOMPARE(offer->mine, QStringLiteral("line\nalice\n"));

        m_session->leaveEditing();
        QVERIFY(!m_session->isEditing() && !m_session->mergeOffer());
        QVERIFY(hasDraft(QStringLiteral("line\nalice\n")));
        QCOMPARE(m_log->take(),
                 (States {State::Editing, State::Saving, State::Merging, State::Saving,
                          State::Merging, State::Viewing}));
    }

    void supersededSaveLeavesEditingWithAMergeOffer()
    {
        write(*m_alice, QStringLiteral("base\n"));
        QVERIFY(open() && m_session->startEditing());
        m_session->setWorkingText(QStringLiteral("base\nours\n"));
        proxy().injectFault(RecordingProxy::Fault::Hold,
                            RecordingProxy::queryContaining("\"limit\":256"));
        m_session->save();
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 10000);
        canvas::SaveOptions unconditional;
        unconditional.unconditional = true;
        const SaveOutcome legacy = await(m_bob->service->save(
            m_channel, std::nullopt, QStringLiteral("legacy\n"), unconditional));
        QVERIFY(legacy.isSaved());
        proxy().release();
        QCOMPARE(settled().outcome.kind, Kind::Superseded);
        QCOMPARE(m_session->state(), State::Viewing);
        QVERIFY(!m_session->isEditing());
        const auto offer = m_session->mergeOffer();
        QVERIFY(offer && offer->theirs);
        QCOMPARE(offer->mine, QStringLiteral("base\nours\n"));
        QCOMPARE(offer->theirs->eventId, legacy.saved->eventId);

        m_session->acceptMerge(offer->theirs, QStringLiteral("legacy\nours\n"), false);
        QCOMPARE(m_session->state(), State::Editing);
        QCOMPARE(m_session->editBase()->eventId, legacy.saved->eventId);
        QCOMPARE(m_session->workingText(), QStringLiteral("legacy\nours\n"));
        QVERIFY(!m_session->mergeOffer() && m_session->isEditedSinceBase());
        QCOMPARE(m_log->take(),
                 (States {State::Editing, State::Saving, State::Viewing, State::Editing}));
    }

    void restoreAndItsUnknownOutcome()
    {
        const CanvasRevision v1 = write(*m_alice, QStringLiteral("v1\n"));
        write(*m_alice, QStringLiteral("v2\n"));
        QVERIFY(open() && m_session->startEditing());
        // An editor with nothing typed closes for the restore.
        QVERIFY(m_session->restore(v1.eventId, m_session->head()->eventId));
        QCOMPARE(m_session->state(), State::Restoring);
        QVERIFY(m_session->isBusy() && !m_session->isEditing() && !m_session->canRestore());
        QCOMPARE(settled().outcome.kind, Kind::SavedVerified);
        QCOMPARE(m_session->head()->content, QStringLiteral("v1\n"));

        const CanvasRevision v3 = write(*m_bob, QStringLiteral("v3\n"));
        QVERIFY(reload());
        QTRY_COMPARE_WITH_TIMEOUT(m_session->head()->eventId, v3.eventId, 10000);
        loseTheNextWritesAnswer();
        QVERIFY(m_session->restore(v1.eventId, v3.eventId));
        QCOMPARE(settled().outcome.kind, Kind::OutcomeUnknown);
        QCOMPARE(m_session->state(), State::OutcomeUnknown);
        QVERIFY(!m_session->isEditing() && m_session->canRetry() && !m_session->canRestore());
        QVERIFY(!m_session->startEditing()); // its fate first
        m_session->retry();
        QCOMPARE(m_session->state(), State::Restoring);
        QCOMPARE(settled().outcome.kind, Kind::SavedVerified);
        QCOMPARE(m_session->state(), State::Viewing);
        QCOMPARE(
            m_log->take(),
            (States {State::Editing, State::Viewing, State::Restoring, State::Viewing,
                     State::Restoring, State::OutcomeUnknown, State::Restoring, State::Viewing}));
    }

    void aDraftBasesAnswerCountsOnlyWhileViewingLasts()
    {
        const CanvasRevision v1 = write(*m_alice, QStringLiteral("shared\n"));
        QVERIFY(open() && m_session->startEditing());
        m_session->setWorkingText(QStringLiteral("shared\nmine\n"));
        m_session->leaveEditing(); // a draft on v1
        const CanvasRevision v2 = write(*m_bob, QStringLiteral("shared\ntheirs\n"));
        QVERIFY(reload());
        QTRY_COMPARE_WITH_TIMEOUT(m_session->head()->eventId, v2.eventId, 10000);
        const auto draft = m_session->draftToOffer();
        QVERIFY(draft);
        QCOMPARE(draft->key.baseRevision, v1.eventId);

        // The base is read; meanwhile the user restores a revision: the answer finds the
        // session no longer in the Viewing that asked, and opens nothing.
        proxy().injectFault(RecordingProxy::Fault::Hold,
                            RecordingProxy::queryContaining(v1.eventId.toUtf8()));
        m_session->restoreDraft(*draft);
        QTRY_VERIFY_WITH_TIMEOUT(proxy().isHolding(), 10000);
        QCOMPARE(m_session->state(), State::Viewing);
        m_session->restoreDraft(*draft); // one read at a time
        QVERIFY(m_session->restore(v1.eventId, v2.eventId));
        QCOMPARE(settled().outcome.kind, Kind::SavedVerified);
        QSignalSpy editing(m_session.get(), &CanvasSession::editingChanged);
        QSignalSpy failed(m_session.get(), &CanvasSession::draftFailed);
        proxy().release();
        // A request is logged once answered, in the same pass that hands the answer over.
        QTRY_VERIFY_WITH_TIMEOUT(
            std::any_of(m_alice->log().entries().begin(), m_alice->log().entries().end(),
                        [](const client::RequestLogEntry &entry) {
                            return entry.caller == QLatin1String("canvas_draft_base");
                        }),
            10000);
        QCOMPARE(m_session->state(), State::Viewing);
        QVERIFY(editing.isEmpty() && failed.isEmpty());

        // Asked again, it opens the draft on its strongly read base.
        m_session->restoreDraft(*draft);
        QVERIFY(editing.wait(10000));
        QCOMPARE(m_session->state(), State::Editing);
        QCOMPARE(m_session->editBase()->eventId, v1.eventId);
        QCOMPARE(m_session->workingText(), QStringLiteral("shared\nmine\n"));
        QCOMPARE(m_log->take(),
                 (States {State::Editing, State::Viewing, State::Restoring, State::Viewing,
                          State::Editing}));
    }
};

QTEST_GUILESS_MAIN(TestSessionInvariants)
#include "test_session_invariants.moc"
