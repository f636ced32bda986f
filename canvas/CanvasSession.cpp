#include "canvas/CanvasSession.h"

#include "canvas/CanvasService.h"
#include "canvas/CanvasWatch.h"
#include "canvas/SessionInvariants.h"

#include <QLoggingCategory>

#include <algorithm>
#include <utility>

#include <qcoro/qcorotask.h>

Q_LOGGING_CATEGORY(lcCanvasSession, "buzz.canvas.session")

namespace buzz::canvas {

using Kind = SaveOutcome::Kind;
using Saving = SessionState::Saving;
using OutcomeUnknown = SessionState::OutcomeUnknown;
using Restoring = SessionState::Restoring;
using Editing = SessionState::Editing;
using EditUnderSave = SessionState::EditUnderSave;

// The save or restore in flight. `sent` is the text of the signed event — for a Retry the
// pending event's content, never the working text at the time of the click.
struct CanvasSession::Write
{
    Operation operation = Operation::Save;
    std::optional<CanvasRevision> base;
    QString sent;
};

namespace {

// Runs `task` and hands its result to `then` only while `session` exists: closing or switching
// the channel deletes the session, and with it every answer still on its way.
template<class T, class Then>
void whileOpen(QCoro::Task<T> &&task, CanvasSession *session, const bool &closed, Then then)
{
    QCoro::connect(std::move(task), session, [&closed, then = std::move(then)](T value) {
        if (!closed)
            then(std::move(value));
    });
}

} // namespace

CanvasSession::CanvasSession(CanvasService *service, CanvasWatch *watch, QString channel,
                             DraftScope drafts, QObject *parent)
    : QObject(parent)
    , m_service(service)
    , m_watch(watch)
    , m_channel(channel.toLower())
    , m_drafts(new CanvasDrafts(std::move(drafts), m_channel, this))
    , m_recheck(new HeadRecheck(
          service, m_channel, [this] { return m_headSource != HeadSource::Strong; }, this))
{
    qRegisterMetaType<buzz::canvas::CanvasSession::Settled>();
    connect(m_drafts, &CanvasDrafts::autosaveDue, this, [this] { autosaveNow(true); });
    connect(m_drafts, &CanvasDrafts::draftStored, this, &CanvasSession::draftStored);
    connect(m_watch, &CanvasWatch::canvasChanged, this, &CanvasSession::onLiveChange);
    connect(m_service, &CanvasService::relayConnected, this, &CanvasSession::retryByItself);
    connect(m_recheck, &HeadRecheck::headRead, this,
            [this](const CanvasRevision &head) { learn(head, HeadSource::Strong); });
    m_autoRetry.setSingleShot(true);
    connect(&m_autoRetry, &QTimer::timeout, this, [this] {
        if (m_service->isRelayConnected())
            retryByItself(); // else relayConnected will
    });
    m_watch->watch(m_channel);
}

CanvasSession::~CanvasSession()
{
    flushDraft(); // the edit stays recoverable after switching channels or quitting
    m_closed = true;
    m_watch->unwatch(m_channel);
}

void CanvasSession::enter(SessionState::Data next)
{
    m_state.set(std::move(next));
    SessionInvariants::check(*this);
}

void CanvasSession::announceState()
{
    if (m_announced == state())
        return;
    m_announced = state();
    emit stateChanged(m_announced);
}

const std::optional<CanvasRevision> &CanvasSession::liveChange() const
{
    static const std::optional<CanvasRevision> none;
    return isEditing() ? edit()->liveChange : none;
}

void CanvasSession::setTextSource(std::function<QString()> source)
{
    if (m_textSource && !source)
        m_text = m_textSource(); // the view goes away: the session keeps the text
    m_textSource = std::move(source);
}

void CanvasSession::setHead(const std::optional<CanvasRevision> &head, HeadSource source)
{
    m_head = head;
    m_headSource = source;
    emit headChanged();
}

void CanvasSession::adoptIfNewer(const CanvasRevision &revision, HeadSource source)
{
    if (m_head && m_head->hasId(revision.eventId)) {
        if (source == HeadSource::Strong && m_headSource != HeadSource::Strong) {
            m_headSource = HeadSource::Strong;
            emit headChanged();
        }
        return;
    }
    if (!m_head || revision.isNewerThan(*m_head))
        setHead(revision, source);
}

void CanvasSession::confirm(const CanvasRevision &revision)
{
    m_own.add(revision);
    emit confirmedRevisionsChanged();
}

void CanvasSession::load()
{
    m_loading = true;
    whileOpen(m_service->head(m_channel, ReadIntent::Display), this, m_closed,
              [this](client::Result<std::optional<CanvasRevision>> result) {
                  m_loading = false;
                  if (!result) {
                      m_loadError = result.error();
                      emit loadFinished(false);
                      return;
                  }
                  m_loadError.reset();
                  const std::optional<CanvasRevision> &read = *result;
                  // A display read may come from a lagging replica: it never steps back behind a
                  // head this session already knows (its own verified save, a live event).
                  if (!isHeadKnown())
                      setHead(read, HeadSource::Routed);
                  else if (read)
                      adoptIfNewer(*read, HeadSource::Routed);
                  if (m_headSource == HeadSource::Routed)
                      m_recheck->schedule();
                  emit loadFinished(true);
              });
}

bool CanvasSession::startEditing()
{
    if (isEditing() || !isHeadKnown() || state() != State::Viewing)
        return isEditing();
    // A draft on this very revision is an edit left earlier: it continues, rather than a new
    // edit whose autosave would overwrite it (drafts are keyed by their base).
    if (const auto draft = m_drafts->load(m_head)) {
        enterEditing(m_head, draft->content, draft->key);
        return true;
    }
    enterEditing(m_head, m_head ? m_head->content : QString());
    return true;
}

void CanvasSession::enterEditing(const std::optional<CanvasRevision> &base, const QString &text,
                                 const std::optional<DraftKey> &continuing)
{
    // What the edit STARTED from, never the live head; no conflict, live change or offer yet.
    enter(Editing {Edit {base, false, std::nullopt}});
    m_drafts->beginEdit(continuing);
    m_text = text;
    emit workingTextReplaced(text, false);
    const bool edited = text != baseText();
    edit()->edited = edited;
    if (edited)
        m_drafts->store(base, text); // a restored draft is this edit's own from now on
    emit editingChanged(true);
    emit editedChanged(edited);
    announceState();
}

void CanvasSession::endEditing(Viewing next)
{
    setWaitingForRelay(false); // the edit is over: its text is a draft, nothing waits to be sent
    m_drafts->stopAutosave();
    enter(std::move(next));
    emit editingChanged(false);
    emit editedChanged(false);
    announceState();
}

void CanvasSession::moveBase(const std::optional<CanvasRevision> &base)
{
    edit()->base = base;
    const bool edited = workingText() != baseText();
    if (edited != edit()->edited) {
        edit()->edited = edited;
        emit editedChanged(edited);
    }
}

void CanvasSession::textEdited()
{
    if (!isEditing())
        return;
    if (!edit()->edited) {
        edit()->edited = true;
        emit editedChanged(true);
    }
    m_drafts->textEdited();
}

void CanvasSession::setWorkingText(const QString &text, bool undoable)
{
    m_text = text;
    emit workingTextReplaced(text, undoable);
    textEdited();
}

void CanvasSession::autosaveNow(bool background)
{
    if (!isEditing())
        return;
    // One copy of the text per autosave (a 256 KiB canvas: about a millisecond); the JSON, the
    // write and the wait for the disk happen on the writer thread while typing goes on.
    const QString text = workingText();
    if (text == baseText())
        m_drafts->withdraw(editBase()); // the editor is back at its base: nothing unsaved
    else if (background)
        m_drafts->storeInBackground(editBase(), text);
    else
        m_drafts->store(editBase(), text);
}

void CanvasSession::flushDraft()
{
    if (m_drafts->autosavePending()) {
        m_drafts->stopAutosave();
        autosaveNow(false);
    }
    m_drafts->flushToDisk();
}

bool CanvasSession::canRetry() const
{
    if (isBusy())
        return false;
    if (state() == State::OutcomeUnknown)
        return true;
    if (!m_settled || m_settled->outcome.kind != Kind::Error || !m_settled->outcome.error
        || !m_settled->outcome.error->isUnreachable())
        return false;
    return m_settled->operation == Operation::Save ? isEditing()
                                                   : m_lastRestore.has_value() && !isEditing();
}

void CanvasSession::save()
{
    if (!isEditing() || m_closed)
        return;
    if (auto *saving = m_state.as<Saving>()) {
        saving->save.saveAgain = true; // the newer text goes out once this save lands
        return;
    }
    if (auto *unknown = m_state.as<OutcomeUnknown>()) {
        unknown->save->saveAgain = true; // settle the unknown write first, or it could land twice
        retry();
        return;
    }
    if (m_drafts->autosavePending()) {
        // The draft holds what is being sent if the app dies now (queued behind earlier writes,
        // so it is the newest text on disk).
        m_drafts->stopAutosave();
        autosaveNow(true);
    }
    Write write {Operation::Save, editBase(), workingText()};
    enter(Saving {EditUnderSave {*edit(), m_state.conflictTheirs(), false}, write.sent});
    announceState();
    whileOpen(m_service->save(m_channel, write.base, write.sent, saveOptions()), this, m_closed,
              [this, write](SaveOutcome outcome) { settle(write, std::move(outcome)); });
}

void CanvasSession::retry()
{
    if (!canRetry())
        return;
    if (auto *unknown = m_state.as<OutcomeUnknown>(); unknown && unknown->unknown.pending) {
        const SaveOutcome pending = unknown->unknown;
        const Operation operation = unknown->save ? Operation::Save : Operation::Restore;
        Write write {operation, pending.base, QString::fromStdString(pending.pending->content)};
        if (unknown->save)
            enter(Saving {std::move(*unknown->save), write.sent});
        else
            enter(Restoring {});
        announceState();
        whileOpen(m_service->resubmit(pending), this, m_closed,
                  [this, write](SaveOutcome outcome) { settle(write, std::move(outcome)); });
        return;
    }
    if (m_settled->operation == Operation::Save)
        save();
    else
        restore(m_lastRestore->first, m_lastRestore->second);
}

void CanvasSession::setWaitingForRelay(bool waiting)
{
    if (waiting) {
        // Back off while the connection looks fine but the save still cannot get through.
        m_autoRetryDelayMs = m_waitingForRelay ? std::min(m_autoRetryDelayMs * 2, kAutoRetryMaxMs)
                                               : kAutoRetryFirstMs;
        m_autoRetry.start(m_autoRetryDelayMs);
    } else {
        m_autoRetry.stop();
    }
    if (m_waitingForRelay == waiting)
        return;
    m_waitingForRelay = waiting;
    emit waitingForRelayChanged();
}

void CanvasSession::retryByItself()
{
    if (!m_waitingForRelay || m_closed || !canRetry())
        return;
    qCInfo(lcCanvasSession) << m_channel.left(8) << "the relay is back: retrying the save";
    m_autoRetry.stop();
    retry(); // OutcomeUnknown: existence check, then the same event; else a fresh save
    emit waitingForRelayChanged(); // no longer waiting while it is under way
}

bool CanvasSession::canRestore() const
{
    if (m_closed)
        return false;
    if (state() == State::Viewing)
        return true;
    // An editor left open after a save, with nothing typed since, is no edit to protect.
    return state() == State::Editing && !edit()->edited;
}

bool CanvasSession::restore(const QString &revisionId, std::optional<QString> frozenHeadId)
{
    if (!canRestore())
        return false;
    if (isEditing())
        endEditing();
    m_lastRestore = std::make_pair(revisionId, frozenHeadId);
    enter(Restoring {}); // a superseded save's merge offer goes: the restore replaces the head
    announceState();
    Write write {Operation::Restore, std::nullopt, QString()};
    whileOpen(m_service->restore(m_channel, revisionId, frozenHeadId), this, m_closed,
              [this, write](SaveOutcome outcome) { settle(write, std::move(outcome)); });
    return true;
}

void CanvasSession::settle(Write write, SaveOutcome outcome)
{
    qCDebug(lcCanvasSession) << m_channel.left(8) << "settled" << outcome.kindName();
    Q_ASSERT(state() == (write.operation == Operation::Save ? State::Saving : State::Restoring));
    Settled result {write.operation, outcome, false};
    // Save pressed meanwhile waits with an unknown outcome; otherwise it is used up here.
    const bool saveAgain = m_state.saveAgain();
    if (write.operation == Operation::Save) {
        result.laterChangesUnsaved = settleSave(write, outcome);
        const bool forWantOfAConnection = outcome.kind == Kind::OutcomeUnknown
            || (outcome.kind == Kind::Error && outcome.error && outcome.error->isUnreachable());
        setWaitingForRelay(forWantOfAConnection && isEditing());
        enter(m_state.afterSave(outcome));
    } else {
        settleRestore(outcome);
        enter(SessionState::afterRestore(outcome));
    }
    announceState();
    m_settled = result;
    emit settled(result);
    if (saveAgain && state() == State::Editing && result.laterChangesUnsaved)
        save();
}

bool CanvasSession::settleSave(const Write &write, const SaveOutcome &outcome)
{
    switch (outcome.kind) {
    case Kind::SavedVerified:
    case Kind::SavedUnverified:
    case Kind::AlreadyCurrent: {
        const CanvasRevision landed = *outcome.saved;
        if (outcome.kind != Kind::AlreadyCurrent)
            confirm(landed);
        adoptIfNewer(landed, HeadSource::Strong);
        const QString now = workingText();
        moveBase(landed);
        if (now == write.sent) {
            // Everything typed is saved. Its drafts go once the writer proved the text is stored;
            // the editor stays open on the landed revision, caret and scroll untouched (a save
            // is not "done editing": Esc or Ctrl+E is).
            m_drafts->stopAutosave();
            if (outcome.kind != Kind::SavedUnverified)
                m_drafts->discardEditDrafts();
            return false;
        }
        // Typed while the save was under way: an unsaved edit on top of what landed.
        m_drafts->store(editBase(), now);
        return true;
    }
    case Kind::Superseded: {
        // Ours is in history, but a write not built on it is current.
        confirm(*outcome.saved);
        if (outcome.head)
            adoptIfNewer(*outcome.head, HeadSource::Strong);
        const QString now = workingText();
        if (now == write.sent) {
            const QString baseText = write.base ? write.base->content : QString();
            endEditing(Viewing {MergeOffer {write.base, baseText, write.sent, outcome.head}, 0});
            return false;
        }
        moveBase(*outcome.saved);
        m_drafts->store(editBase(), now);
        if (outcome.head && !isOwnRevision(outcome.head->eventId)) {
            edit()->liveChange = outcome.head;
            emit liveChangeArrived(*outcome.head);
        }
        return true;
    }
    case Kind::Conflict:
        if (outcome.theirs)
            adoptIfNewer(*outcome.theirs, HeadSource::Strong);
        return false;
    case Kind::OutcomeUnknown:
    case Kind::Error:
        return false;
    }
    return false;
}

void CanvasSession::settleRestore(const SaveOutcome &outcome)
{
    switch (outcome.kind) {
    case Kind::SavedVerified:
    case Kind::SavedUnverified:
    case Kind::Superseded:
        confirm(*outcome.saved);
        adoptIfNewer(*outcome.saved, HeadSource::Strong);
        if (outcome.head)
            adoptIfNewer(*outcome.head, HeadSource::Strong);
        break;
    case Kind::AlreadyCurrent:
        adoptIfNewer(*outcome.saved, HeadSource::Strong);
        break;
    case Kind::Conflict:
        if (outcome.theirs)
            adoptIfNewer(*outcome.theirs, HeadSource::Strong);
        break;
    case Kind::OutcomeUnknown:
    case Kind::Error:
        break;
    }
}

std::optional<CanvasSession::MergeOffer> CanvasSession::mergeOffer() const
{
    if (const auto theirs = m_state.conflictTheirs())
        return MergeOffer {editBase(), baseText(), workingText(), theirs};
    if (const auto *viewing = m_state.as<Viewing>())
        return viewing->superseded;
    return std::nullopt;
}

void CanvasSession::acceptMerge(const std::optional<CanvasRevision> &theirs, const QString &merged,
                                bool saveAfter)
{
    if (isBusy() || m_closed || (!isEditing() && state() != State::Viewing))
        return;
    const auto *viewing = m_state.as<Viewing>();
    const QString mine = isEditing()     ? workingText()
        : viewing && viewing->superseded ? viewing->superseded->mine
                                         : QString();
    m_mergeLabel = RevisionLabel::forMerge(theirs, mine, merged);
    if (!isEditing())
        enterEditing(theirs, theirs ? theirs->content : QString());
    enter(m_state.afterMerge()); // the conflict is resolved, the live change merged
    if (theirs)
        adoptIfNewer(*theirs, HeadSource::Routed);
    edit()->base = theirs; // the next save is a compare-and-swap against theirs
    setWorkingText(merged, true);
    edit()->edited = merged != baseText();
    emit editedChanged(edit()->edited);
    announceState();
    if (saveAfter && edit()->edited)
        save();
}

void CanvasSession::leaveEditing()
{
    if (!isEditing() || isBusy())
        return;
    m_drafts->stopAutosave();
    autosaveNow(false); // the latest text is the draft, or the draft goes when nothing is unsaved
    endEditing(); // an unknown save's text stays in the draft; the edit is over
}

void CanvasSession::discardEdit()
{
    if (!isEditing() || isBusy())
        return;
    m_drafts->stopAutosave();
    m_drafts->discard(editBase());
    endEditing();
}

std::optional<Draft> CanvasSession::draftToOffer()
{
    if (isEditing() || !isHeadKnown())
        return std::nullopt;
    return m_drafts->draftToOffer(m_head);
}

void CanvasSession::discardDraft(const DraftKey &key)
{
    m_drafts->discard(key);
}

void CanvasSession::restoreDraft(const Draft &draft)
{
    const auto *viewing = m_state.as<Viewing>();
    if (!viewing || viewing->draftBaseRead != 0)
        return;
    const QString baseId = draft.key.baseRevision;
    if (baseId == QLatin1String(kExpectedNone)) {
        enterEditing(std::nullopt, draft.content, draft.key);
        return;
    }
    if (m_head && m_head->hasId(baseId)) {
        enterEditing(m_head, draft.content, draft.key);
        return;
    }
    // An older base: read it from the writer, so the save is a compare-and-swap against it and a
    // conflict merges three ways. A missing base is an error, never "there was no canvas". The
    // answer counts only while this Viewing lasts.
    const quint64 read = ++m_draftBaseReads;
    enter(Viewing {viewing->superseded, read});
    whileOpen(m_service->draftBase(m_channel, baseId), this, m_closed,
              [this, draft, read](client::Result<std::optional<CanvasRevision>> base) {
                  const auto *viewing = m_state.as<Viewing>();
                  if (!viewing || viewing->draftBaseRead != read)
                      return;
                  enter(Viewing {viewing->superseded, 0});
                  if (base && *base)
                      return enterEditing(**base, draft.content, draft.key);
                  emit draftFailed(base ? client::RelayError::make(
                                       client::RelayError::Kind::NotFound,
                                       QStringLiteral("the revision this draft started "
                                                      "from is not on the relay"))
                                        : base.error(),
                                   draft);
              });
}

void CanvasSession::onLiveChange(const QString &channel, const CanvasRevision &revision)
{
    if (channel.compare(m_channel, Qt::CaseInsensitive) == 0)
        learn(revision, HeadSource::Routed);
}

void CanvasSession::learn(const CanvasRevision &revision, HeadSource source)
{
    if (m_head && !revision.isNewerThan(*m_head)) {
        adoptIfNewer(revision, source); // the writer confirmed the head: it is known strongly
        return; // an echo of what we show, or an older revision arriving late
    }
    adoptIfNewer(revision, source);
    if (!isEditing() || isOwnRevision(revision.eventId))
        return;
    // The echo of our own save in flight may beat its answer.
    const QString baseId = editBase() ? editBase()->eventId : QString::fromLatin1(kExpectedNone);
    const auto *saving = m_state.as<Saving>();
    if (saving && revision.content == saving->sent
        && revision.expectedRevision.value_or(QString()).compare(baseId, Qt::CaseInsensitive) == 0)
        return;
    edit()->liveChange = revision;
    emit liveChangeArrived(revision);
}

} // namespace buzz::canvas
