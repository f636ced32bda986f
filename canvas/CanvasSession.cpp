#include "canvas/CanvasSession.h"

#include "canvas/CanvasService.h"
#include "canvas/CanvasWatch.h"

#include <QLoggingCategory>

#include <algorithm>

#include <qcoro/qcorotask.h>

Q_LOGGING_CATEGORY(lcCanvasSession, "buzz.canvas.session")

namespace buzz::canvas {

using Kind = SaveOutcome::Kind;

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

void CanvasSession::setState(State state)
{
    if (m_state == state)
        return;
    m_state = state;
    emit stateChanged(state);
}

CanvasSession::State CanvasSession::idleState() const
{
    if (m_pending)
        return State::OutcomeUnknown;
    if (!m_editing)
        return State::Viewing;
    return m_conflicted ? State::Merging : State::Editing;
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
    if (m_editing || !isHeadKnown() || m_state != State::Viewing)
        return m_editing;
    // A draft on this very revision is an edit left earlier: it continues, rather than a new
    // edit whose autosave would overwrite it (drafts are keyed by their base).
    if (const auto draft = m_drafts->load(m_head)) {
        enterEditing(m_head, draft->content);
        return true;
    }
    enterEditing(m_head, m_head ? m_head->content : QString());
    return true;
}

void CanvasSession::enterEditing(const std::optional<CanvasRevision> &base, const QString &text)
{
    m_base = base; // what the edit STARTED from, never the live head
    m_editing = true;
    m_conflicted = false;
    m_conflictTheirs.reset();
    m_liveChange.reset();
    m_superseded.reset();
    m_drafts->beginEdit();
    m_text = text;
    emit workingTextReplaced(text, false);
    m_edited = text != baseText();
    if (m_edited)
        m_drafts->store(m_base, text); // a restored draft is this edit's own from now on
    emit editingChanged(true);
    emit editedChanged(m_edited);
    setState(idleState());
}

void CanvasSession::endEditing()
{
    setWaitingForRelay(false); // the edit is over: its text is a draft, nothing waits to be sent
    m_drafts->stopAutosave();
    m_editing = false;
    m_edited = false;
    m_saveAgain = false;
    m_conflicted = false;
    m_conflictTheirs.reset();
    m_liveChange.reset();
    emit editingChanged(false);
    emit editedChanged(false);
    setState(idleState());
}

void CanvasSession::moveBase(const std::optional<CanvasRevision> &base)
{
    m_base = base;
    const bool edited = workingText() != baseText();
    if (edited != m_edited) {
        m_edited = edited;
        emit editedChanged(edited);
    }
}

void CanvasSession::textEdited()
{
    if (!m_editing)
        return;
    if (!m_edited) {
        m_edited = true;
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
    if (!m_editing)
        return;
    // One copy of the text per autosave (a 256 KiB canvas: about a millisecond); the JSON, the
    // write and the wait for the disk happen on the writer thread while typing goes on.
    const QString text = workingText();
    if (text == baseText())
        m_drafts->withdraw(m_base); // the editor is back at its base: nothing unsaved
    else if (background)
        m_drafts->storeInBackground(m_base, text);
    else
        m_drafts->store(m_base, text);
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
    if (m_state == State::OutcomeUnknown)
        return true;
    if (!m_settled || m_settled->outcome.kind != Kind::Error || !m_settled->outcome.error
        || !m_settled->outcome.error->isUnreachable())
        return false;
    return m_settled->operation == Operation::Save ? m_editing
                                                   : m_lastRestore.has_value() && !m_editing;
}

void CanvasSession::save()
{
    if (!m_editing || m_closed)
        return;
    if (m_state == State::Saving) {
        m_saveAgain = true; // the newer text goes out once this save lands
        return;
    }
    if (m_state == State::OutcomeUnknown) {
        m_saveAgain = true; // settle the unknown write first, or its text could land twice
        retry();
        return;
    }
    if (m_drafts->autosavePending()) {
        // The draft holds what is being sent if the app dies now (queued behind earlier writes,
        // so it is the newest text on disk).
        m_drafts->stopAutosave();
        autosaveNow(true);
    }
    Write write {Operation::Save, m_base, workingText()};
    m_inFlightText = write.sent;
    m_saveAgain = false;
    m_superseded.reset();
    setState(State::Saving);
    whileOpen(m_service->save(m_channel, m_base, write.sent, saveOptions()), this, m_closed,
              [this, write](SaveOutcome outcome) { settle(write, std::move(outcome)); });
}

void CanvasSession::retry()
{
    if (!canRetry())
        return;
    if (m_state == State::OutcomeUnknown && m_pending && m_pending->pending) {
        const Operation operation = m_pendingOperation.value_or(Operation::Save);
        Write write {operation, m_pending->base,
                     QString::fromStdString(m_pending->pending->content)};
        m_inFlightText = write.sent;
        setState(operation == Operation::Save ? State::Saving : State::Restoring);
        whileOpen(m_service->resubmit(*m_pending), this, m_closed,
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
    if (m_state == State::Viewing)
        return true;
    // An editor left open after a save, with nothing typed since, is no edit to protect.
    return m_state == State::Editing && !m_edited;
}

bool CanvasSession::restore(const QString &revisionId, std::optional<QString> frozenHeadId)
{
    if (!canRestore())
        return false;
    if (m_editing)
        endEditing();
    m_lastRestore = std::make_pair(revisionId, frozenHeadId);
    m_superseded.reset();
    setState(State::Restoring);
    Write write {Operation::Restore, std::nullopt, QString()};
    whileOpen(m_service->restore(m_channel, revisionId, frozenHeadId), this, m_closed,
              [this, write](SaveOutcome outcome) { settle(write, std::move(outcome)); });
    return true;
}

void CanvasSession::settle(Write write, SaveOutcome outcome)
{
    qCDebug(lcCanvasSession) << m_channel.left(8) << "settled" << outcome.kindName();
    Settled result {write.operation, outcome, false};
    if (outcome.kind == Kind::OutcomeUnknown) {
        m_pending = outcome;
        m_pendingOperation = write.operation;
    } else {
        m_pending.reset();
        m_pendingOperation.reset();
    }
    if (write.operation == Operation::Save) {
        result.laterChangesUnsaved = settleSave(write, outcome);
        const bool forWantOfAConnection = outcome.kind == Kind::OutcomeUnknown
            || (outcome.kind == Kind::Error && outcome.error && outcome.error->isUnreachable());
        setWaitingForRelay(forWantOfAConnection && m_editing);
    } else {
        settleRestore(outcome);
    }
    setState(idleState());
    m_settled = result;
    emit settled(result);
    if (m_saveAgain && m_state == State::Editing && result.laterChangesUnsaved)
        save();
    else if (m_state != State::OutcomeUnknown)
        m_saveAgain = false;
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
        m_conflicted = false;
        m_conflictTheirs.reset();
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
        m_drafts->store(m_base, now);
        return true;
    }
    case Kind::Superseded: {
        // Ours is in history, but a write not built on it is current.
        confirm(*outcome.saved);
        if (outcome.head)
            adoptIfNewer(*outcome.head, HeadSource::Strong);
        const QString now = workingText();
        if (now == write.sent) {
            m_superseded = MergeOffer {write.base, write.base ? write.base->content : QString(),
                                       write.sent, outcome.head};
            endEditing();
            return false;
        }
        moveBase(*outcome.saved);
        m_drafts->store(m_base, now);
        if (outcome.head && !isOwnRevision(outcome.head->eventId)) {
            m_liveChange = outcome.head;
            emit liveChangeArrived(*outcome.head);
        }
        return true;
    }
    case Kind::Conflict:
        if (outcome.theirs)
            adoptIfNewer(*outcome.theirs, HeadSource::Strong);
        // Without theirs (the channel lost its canvas, or the read failed) there is nothing to
        // merge with: the edit stays as it is and a later Save asks again.
        m_conflicted = outcome.theirs.has_value();
        m_conflictTheirs = outcome.theirs;
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
    if (m_editing && m_conflicted)
        return MergeOffer {m_base, baseText(), workingText(), m_conflictTheirs};
    if (!m_editing && m_superseded)
        return m_superseded;
    return std::nullopt;
}

void CanvasSession::acceptMerge(const std::optional<CanvasRevision> &theirs, const QString &merged,
                                bool saveAfter)
{
    if (isBusy() || m_closed || (!m_editing && m_state != State::Viewing))
        return;
    const QString mine = m_editing ? workingText() : m_superseded ? m_superseded->mine : QString();
    m_mergeLabel = RevisionLabel::forMerge(theirs, mine, merged);
    if (!m_editing)
        enterEditing(theirs, theirs ? theirs->content : QString());
    m_conflicted = false;
    m_conflictTheirs.reset();
    m_superseded.reset();
    m_liveChange.reset();
    if (theirs)
        adoptIfNewer(*theirs, HeadSource::Routed);
    m_base = theirs; // the next save is a compare-and-swap against theirs
    setWorkingText(merged, true);
    m_edited = merged != baseText();
    emit editedChanged(m_edited);
    setState(idleState());
    if (saveAfter && m_edited)
        save();
}

void CanvasSession::leaveEditing()
{
    if (!m_editing || isBusy())
        return;
    m_drafts->stopAutosave();
    autosaveNow(false); // the latest text is the draft, or the draft goes when nothing is unsaved
    m_pending.reset(); // an unknown save's text stays in the draft; the edit is over
    m_pendingOperation.reset();
    endEditing();
}

void CanvasSession::discardEdit()
{
    if (!m_editing || isBusy())
        return;
    m_drafts->stopAutosave();
    m_drafts->discard(m_base);
    m_pending.reset();
    m_pendingOperation.reset();
    endEditing();
}

std::optional<Draft> CanvasSession::draftToOffer()
{
    if (m_editing || !isHeadKnown())
        return std::nullopt;
    return m_drafts->draftToOffer(m_head);
}

void CanvasSession::discardDraft(const DraftKey &key)
{
    m_drafts->discard(key);
}

void CanvasSession::restoreDraft(const Draft &draft)
{
    if (m_editing || m_draftBaseLoading || m_state != State::Viewing)
        return;
    const QString baseId = draft.key.baseRevision;
    if (baseId == QLatin1String(kExpectedNone)) {
        enterEditing(std::nullopt, draft.content);
        return;
    }
    if (m_head && m_head->hasId(baseId)) {
        enterEditing(m_head, draft.content);
        return;
    }
    // An older base: read it from the writer, so the save is a compare-and-swap against it and a
    // conflict merges three ways. A missing base is an error, never "there was no canvas".
    m_draftBaseLoading = true;
    whileOpen(m_service->draftBase(m_channel, baseId), this, m_closed,
              [this, draft](client::Result<std::optional<CanvasRevision>> base) {
                  m_draftBaseLoading = false;
                  if (m_editing || m_state != State::Viewing)
                      return;
                  if (base && *base)
                      return enterEditing(**base, draft.content);
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
    if (!m_editing || isOwnRevision(revision.eventId))
        return;
    // The echo of our own save in flight may beat its answer.
    const QString baseId = m_base ? m_base->eventId : QString::fromLatin1(kExpectedNone);
    if (m_state == State::Saving && revision.content == m_inFlightText
        && revision.expectedRevision.value_or(QString()).compare(baseId, Qt::CaseInsensitive) == 0)
        return;
    m_liveChange = revision;
    emit liveChangeArrived(revision);
}

} // namespace buzz::canvas
