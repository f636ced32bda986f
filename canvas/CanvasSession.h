#pragma once

#include "canvas/CanvasDrafts.h"
#include "canvas/CanvasRevision.h"
#include "canvas/CanvasService.h"
#include "canvas/HeadRecheck.h"
#include "canvas/RecentRevisions.h"
#include "canvas/SaveOutcome.h"
#include "canvas/SessionState.h"
#include "net/client/RelayError.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <optional>

namespace buzz::canvas {

class CanvasService;
class CanvasWatch;

// One open channel canvas (docs/architecture.md §The canvas session): the single owner of its head
// (and how it was
// learned), the edit base, the working text, the save or restore in flight with its signed event,
// the last outcome, the revisions it wrote, live changes and drafts. Widgets display it; none
// keeps its own copy of any of this. Async work is bound to the session: destroying it (closing
// or switching the channel) drops every answer still on its way.
//
// The rules it guarantees, whatever the relay does:
//  - Saving never blocks typing. When a save (or its Retry) lands, the session rebases: the base
//    becomes the landed revision and the edit goes on from it (a save never closes the editor);
//    if the working text changed since it was sent, the newer text is an unsaved change and the
//    session says the later changes are not saved yet.
//  - "What was sent" is the signed event's content, never the editor's text at Retry time.
//  - A draft is deleted only for text provably in a verified revision, or when the user
//    discards it.
//  - The head never steps back: a display read (maybe from a lagging replica) replaces it only
//    with a newer revision (nostr::isNewer). And it never lags what the window shows elsewhere:
//    a newer revision learned from any read (a live event, a History page, a search result,
//    CanvasWatch::noteRevision) becomes the head, announced as a live change while editing; a
//    head shown from a display read is read again from the writer once the relay's staleness
//    budget has passed (HeadRecheck).
//  - A save that failed for want of a connection (nothing could be sent, or its answer was lost)
//    waits for the relay and goes out by itself once the connection is back, or after a backoff
//    when the connection looked fine: the same signed event, checked strongly for existence
//    first, when it may have been sent; otherwise a fresh compare-and-swap on the edit base.
class CanvasSession : public QObject
{
    Q_OBJECT
public:
    using MergeOffer = canvas::MergeOffer;
    enum class State {
        Viewing, // showing the head, no edit
        Editing, // an edit from editBase(); typing changes the working text
        Saving, // a save or its Retry is in flight; typing goes on
        OutcomeUnknown, // a save's or restore's fate is unknown; Retry re-sends the same event
        Merging, // a save met a newer revision: the edit waits for a three-way merge
        Restoring, // a restore from History is in flight
    };
    Q_ENUM(State)
    // The state is the source: one value (SessionState, a variant of one struct per state, in
    // this order) carries what its state needs, so what a state cannot have it cannot hold. An
    // Edit (base, typed-since-base, a live change by others) exists only in Editing, Saving,
    // Merging and an unknown save. enter() is the only place the state changes; it checks the
    // invariants below after every transition in debug builds (SessionInvariants; SQLite's pager
    // states in pager.c are the model). [checked] marks what the type alone cannot say.
    //  Viewing        no edit, nothing in flight, nothing unknown. May carry the merge offered
    //                 after a save was superseded with nothing typed since, and the one read of
    //                 a restored draft's base still awaited (its answer counts only while the
    //                 session stays in this Viewing). [checked] Not waiting for the relay; the
    //                 read awaited is one this session started.
    //  Editing        an Edit, no conflict's theirs, nothing in flight. canRestore() only while
    //                 nothing was typed since the base moved.
    //  Saving         an Edit, the text the signed event carries (`sent`, never the editor's
    //                 text at Retry time), Save pressed again meanwhile, and the theirs of the
    //                 conflict it was saved from (Merging), which it returns to when the save
    //                 fails. Typing goes on; nothing else changes the state until it settles.
    //  OutcomeUnknown the unknown write, kept for Retry to re-send byte for byte. An unknown
    //                 save keeps everything Saving carried but `sent`; an unknown restore has
    //                 no edit. [checked] The outcome's kind is OutcomeUnknown and it holds the
    //                 signed event; an unknown restore was started by restore().
    //  Merging        an Edit and theirs (the revision the save met), nothing in flight.
    //  Restoring      no edit, no merge offer, a restore (or its Retry) in flight. [checked] The
    //                 restore's target is kept for a Retry after an unreachable relay.
    // In every state [checked]: waiting for the relay only with an Edit (the edit's save waits
    // to go out), and its timer runs only while waiting; no head is known without a source.
    // Orthogonal to the state: the head and how it was learned, loading, the last outcome, the
    // revisions this session wrote and the label of the merge last accepted.
    enum class HeadSource { None, Routed, Strong }; // Routed: display read or live event
    enum class Operation { Save, Restore };
    // Retrying a save that waits for the relay, when the connection never went down (a gateway
    // answered 502, one request was cut): first after this long, doubling up to the maximum.
    static constexpr int kAutoRetryFirstMs = 2000;
    static constexpr int kAutoRetryMaxMs = 30000;

    struct Settled
    {
        Operation operation = Operation::Save;
        SaveOutcome outcome;
        // A save landed while the text went on changing: the edit continues on top of the landed
        // revision and the later changes are not saved yet.
        bool laterChangesUnsaved = false;
    };

    // `watch` keeps the canvas live while the session is open (CanvasWatch::watch).
    CanvasSession(CanvasService *service, CanvasWatch *watch, QString channel, DraftScope drafts,
                  QObject *parent = nullptr);
    ~CanvasSession() override;

    QString channel() const { return m_channel; }
    State state() const { return State(m_state.index()); }
    bool isEditing() const { return edit() != nullptr; }
    bool isBusy() const { return state() == State::Saving || state() == State::Restoring; }

    const std::optional<CanvasRevision> &head() const { return m_head; }
    bool isHeadKnown() const { return m_headSource != HeadSource::None; }
    HeadSource headSource() const { return m_headSource; }
    bool isLoading() const { return m_loading; }
    const std::optional<client::RelayError> &loadError() const { return m_loadError; }

    // The revision the edit started from; none without an edit.
    const std::optional<CanvasRevision> &editBase() const { return m_state.editBase(); }
    QString baseText() const { return editBase() ? editBase()->content : QString(); }
    // The editor registers a source so a keystroke costs no copy; the session pulls the text
    // when it needs it (save, autosave, comparisons). Without one it keeps the text itself.
    // Passing an empty source detaches the view: the session keeps the text it last showed.
    void setTextSource(std::function<QString()> source);
    QString workingText() const { return m_textSource ? m_textSource() : m_text; }
    bool hasUnsavedChanges() const { return isEditing() && workingText() != baseText(); }
    // Cheap: a keystroke since the base moved.
    bool isEditedSinceBase() const { return isEditing() && edit()->edited; }

    const std::optional<Settled> &lastSettled() const { return m_settled; }
    bool canRetry() const;
    // The last save failed for want of a connection and is retried by itself (not while that
    // retry is under way).
    bool isWaitingForRelay() const { return m_waitingForRelay && !isBusy(); }
    std::optional<MergeOffer> mergeOffer() const;
    const std::optional<CanvasRevision> &liveChange() const; // while editing
    bool isOwnRevision(const QString &eventId) const { return m_own.contains(eventId); }
    // Revisions the writer confirmed to this session (its own saves and restores), newest first.
    const RecentRevisions &confirmedRevisions() const { return m_own; }
    CanvasDrafts *drafts() const { return m_drafts; }

    void load(); // display read of the head (open, F5)
    bool startEditing(); // from the head; false when it is not known or a write is unsettled
    void textEdited(); // the view's text changed (a keystroke)
    // Replaces the working text (merge result, tests); the view shows it (`undoable`: one step).
    void setWorkingText(const QString &text, bool undoable = false);
    void save(); // while saving: the newer text is saved once this save lands
    void retry(); // outcome unknown: re-send the same signed event; unreachable error: again
    // Viewing, or an editor with nothing typed since it opened or last saved (it closes first).
    bool canRestore() const;
    bool restore(const QString &revisionId, std::optional<QString> frozenHeadId);
    // Accepts a merge with `theirs`: it becomes the base, `merged` the working text (one undo
    // step). From a superseded save (not editing) this starts an edit from `theirs`.
    void acceptMerge(const std::optional<CanvasRevision> &theirs, const QString &merged,
                     bool saveAfter);
    void leaveEditing(); // unsaved text stays as a draft (offered again)
    void discardEdit(); // the user confirmed: the edit and its drafts go
    void restoreDraft(const Draft &draft); // base read strongly; missing base → draftFailed
    std::optional<Draft> draftToOffer();
    void discardDraft(const DraftKey &key); // the user confirmed
    void flushDraft(); // a pending autosave is written now (switching channel, quitting)
    // A revision learned through another path (live event, tests): becomes the head if newer.
    void learnRevision(const CanvasRevision &revision) { learn(revision, HeadSource::Routed); }

signals:
    void stateChanged(buzz::canvas::CanvasSession::State state);
    void headChanged();
    void loadFinished(bool ok); // !ok: loadError() says why; the shown head is kept
    void editingChanged(bool editing);
    void editedChanged(bool edited);
    void workingTextReplaced(const QString &text, bool undoable);
    void settled(const buzz::canvas::CanvasSession::Settled &settled);
    void liveChangeArrived(const buzz::canvas::CanvasRevision &revision);
    void confirmedRevisionsChanged();
    void waitingForRelayChanged();
    void draftStored(const buzz::canvas::DraftKey &key);
    void draftFailed(const buzz::client::RelayError &error, const buzz::canvas::Draft &draft);

private:
    friend class SessionInvariants; // checks the invariants written under State
    struct Write; // the save or restore in flight

    using Edit = SessionState::Edit;
    using Viewing = SessionState::Viewing;

    // The one place the state changes: the invariants are checked (debug builds); stateChanged
    // follows with announceState(), once what goes with the transition has been announced.
    void enter(SessionState::Data next);
    void announceState();
    const Edit *edit() const { return m_state.edit(); }
    Edit *edit() { return m_state.edit(); }
    void setHead(const std::optional<CanvasRevision> &head, HeadSource source);
    void adoptIfNewer(const CanvasRevision &revision, HeadSource source);
    void enterEditing(const std::optional<CanvasRevision> &base, const QString &text,
                      const std::optional<DraftKey> &continuing = std::nullopt);
    void endEditing(Viewing next = {});
    void moveBase(const std::optional<CanvasRevision> &base);
    void settle(Write write, SaveOutcome outcome);
    bool settleSave(const Write &write, const SaveOutcome &outcome); // true: later changes kept
    void settleRestore(const SaveOutcome &outcome);
    void confirm(const CanvasRevision &revision);
    void onLiveChange(const QString &channel, const CanvasRevision &revision);
    void learn(const CanvasRevision &revision, HeadSource source);
    void autosaveNow(bool background);
    void setWaitingForRelay(bool waiting);
    void retryByItself();
    // A save from the base a merge was accepted onto says it is that merge (RevisionLabel).
    SaveOptions saveOptions() const
    {
        SaveOptions options;
        if (m_mergeLabel && editBase() && editBase()->hasId(m_mergeLabel->revisionId))
            options.label = m_mergeLabel;
        return options;
    }

    CanvasService *m_service;
    CanvasWatch *m_watch;
    QString m_channel;
    CanvasDrafts *m_drafts;
    SessionState m_state; // the state is the source (see State)
    State m_announced = State::Viewing; // the state stateChanged last said
    bool m_closed = false;

    std::optional<CanvasRevision> m_head;
    HeadSource m_headSource = HeadSource::None;
    bool m_loading = false;
    std::optional<client::RelayError> m_loadError;
    HeadRecheck *m_recheck;

    QString m_text; // the working text when no view registered a source
    std::function<QString()> m_textSource;

    std::optional<std::pair<QString, std::optional<QString>>> m_lastRestore; // target, frozen
    std::optional<Settled> m_settled;
    std::optional<RevisionLabel> m_mergeLabel; // the merge last accepted (labels its save)
    RecentRevisions m_own;
    quint64 m_draftBaseReads = 0; // numbers each read of a restored draft's base
    bool m_waitingForRelay = false;
    int m_autoRetryDelayMs = kAutoRetryFirstMs;
    QTimer m_autoRetry;
};

} // namespace buzz::canvas

Q_DECLARE_METATYPE(buzz::canvas::CanvasSession::Settled)
