#pragma once

#include "canvas/CanvasDrafts.h"
#include "canvas/CanvasRevision.h"
#include "canvas/CanvasService.h"
#include "canvas/HeadRecheck.h"
#include "canvas/RecentRevisions.h"
#include "canvas/SaveOutcome.h"
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
    enum class State {
        Viewing, // showing the head, no edit
        Editing, // an edit from editBase(); typing changes the working text
        Saving, // a save or its Retry is in flight; typing goes on
        OutcomeUnknown, // a save's or restore's fate is unknown; Retry re-sends the same event
        Merging, // a save met a newer revision: the edit waits for a three-way merge
        Restoring, // a restore from History is in flight
    };
    Q_ENUM(State)
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

    // A three-way merge to offer: after a conflict (mine = the working text) or a superseded save
    // that left editing (mine = what was saved).
    struct MergeOffer
    {
        std::optional<CanvasRevision> base;
        QString baseText;
        QString mine;
        std::optional<CanvasRevision> theirs;
    };

    // `watch` keeps the canvas live while the session is open (CanvasWatch::watch).
    CanvasSession(CanvasService *service, CanvasWatch *watch, QString channel, DraftScope drafts,
                  QObject *parent = nullptr);
    ~CanvasSession() override;

    QString channel() const { return m_channel; }
    State state() const { return m_state; }
    bool isEditing() const { return m_editing; }
    bool isBusy() const { return m_state == State::Saving || m_state == State::Restoring; }

    const std::optional<CanvasRevision> &head() const { return m_head; }
    bool isHeadKnown() const { return m_headSource != HeadSource::None; }
    HeadSource headSource() const { return m_headSource; }
    bool isLoading() const { return m_loading; }
    const std::optional<client::RelayError> &loadError() const { return m_loadError; }

    const std::optional<CanvasRevision> &editBase() const { return m_base; }
    QString baseText() const { return m_base ? m_base->content : QString(); }
    // The editor registers a source so a keystroke costs no copy; the session pulls the text
    // when it needs it (save, autosave, comparisons). Without one it keeps the text itself.
    // Passing an empty source detaches the view: the session keeps the text it last showed.
    void setTextSource(std::function<QString()> source);
    QString workingText() const { return m_textSource ? m_textSource() : m_text; }
    bool hasUnsavedChanges() const { return m_editing && workingText() != baseText(); }
    bool isEditedSinceBase() const { return m_edited; } // cheap: a keystroke since the base moved

    const std::optional<Settled> &lastSettled() const { return m_settled; }
    bool canRetry() const;
    // The last save failed for want of a connection and is retried by itself (not while that
    // retry is under way).
    bool isWaitingForRelay() const { return m_waitingForRelay && !isBusy(); }
    std::optional<MergeOffer> mergeOffer() const;
    const std::optional<CanvasRevision> &liveChange() const { return m_liveChange; }
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
    struct Write; // the save or restore in flight
    void setState(State state);
    void setHead(const std::optional<CanvasRevision> &head, HeadSource source);
    void adoptIfNewer(const CanvasRevision &revision, HeadSource source);
    void enterEditing(const std::optional<CanvasRevision> &base, const QString &text);
    void endEditing();
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
    State idleState() const;
    // A save from the base a merge was accepted onto says it is that merge (RevisionLabel).
    SaveOptions saveOptions() const
    {
        SaveOptions options;
        if (m_mergeLabel && m_base && m_base->hasId(m_mergeLabel->revisionId))
            options.label = m_mergeLabel;
        return options;
    }

    CanvasService *m_service;
    CanvasWatch *m_watch;
    QString m_channel;
    CanvasDrafts *m_drafts;
    State m_state = State::Viewing;
    bool m_closed = false;

    std::optional<CanvasRevision> m_head;
    HeadSource m_headSource = HeadSource::None;
    bool m_loading = false;
    std::optional<client::RelayError> m_loadError;
    HeadRecheck *m_recheck;

    bool m_editing = false;
    bool m_edited = false;
    std::optional<CanvasRevision> m_base;
    QString m_text; // the working text when no view registered a source
    std::function<QString()> m_textSource;

    bool m_saveAgain = false; // Save pressed while a save was in flight
    QString m_inFlightText; // what the save in flight sent (tells its live echo from a change)
    bool m_conflicted = false; // Merging: a save met a newer revision
    std::optional<CanvasRevision> m_conflictTheirs;
    std::optional<SaveOutcome> m_pending; // OutcomeUnknown: the signed event to re-send
    std::optional<Operation> m_pendingOperation;
    std::optional<std::pair<QString, std::optional<QString>>> m_lastRestore; // target, frozen
    std::optional<Settled> m_settled;
    std::optional<MergeOffer> m_superseded; // offered after a superseded save left editing
    std::optional<CanvasRevision> m_liveChange;
    std::optional<RevisionLabel> m_mergeLabel; // the merge last accepted (labels its save)
    RecentRevisions m_own;
    bool m_draftBaseLoading = false;
    bool m_waitingForRelay = false;
    int m_autoRetryDelayMs = kAutoRetryFirstMs;
    QTimer m_autoRetry;
};

} // namespace buzz::canvas

Q_DECLARE_METATYPE(buzz::canvas::CanvasSession::Settled)
